export const widgetScript = () => "/* Cove chat widget */";
