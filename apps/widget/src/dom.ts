/** An element with its class and text (a text node: nothing is ever parsed as HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A labelled input of the pre-chat form. */
export function field(label: string, input: HTMLInputElement): HTMLLabelElement {
  const wrap = el("label", undefined, label);
  wrap.append(input);
  return wrap;
}
