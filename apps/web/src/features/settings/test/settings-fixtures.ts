import type { GeneralSettings } from "@cove/contract/settings.ts";

/** The test organization's general settings, as GET /api/settings/general answers them. */
export const general: GeneralSettings = {
  name: "Analytical Engines",
  slug: "analytical-engines",
  timezone: "Europe/London",
  brand_color: "#4f46e5",
  logo_url: null,
  help_center_url: "http://localhost:3000/help/analytical-engines",
};
