// DOM helpers. Text from the server is only ever set with textContent (never innerHTML),
// so a name or a chat line such as `<img src=x onerror=...>` shows as the text it is.

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | null | undefined | false;

/** An element with attributes (`on*` keys are not accepted: use `on`) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el: Element, attrs: Attrs): void {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (key.toLowerCase().startsWith("on")) throw new Error(`no ${key} attribute: use on()`);
    el.setAttribute(key, value === true ? "" : String(value));
  }
}

function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** Listen to `type` on `el`; returns `el` for chaining. */
export function on<E extends Element>(
  el: E,
  type: string,
  listener: (event: Event) => void,
): E {
  el.addEventListener(type, listener);
  return el;
}

/** A button that runs `action` on click (and so on Enter and Space). */
export function button(label: string, action: () => void, attrs: Attrs = {}): HTMLButtonElement {
  return on(h("button", { type: "button", ...attrs }, label), "click", action);
}

/** Replace the children of `el`. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** The element with `id` (throws when the page lacks it). */
export function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`no #${id} on the page`);
  return el as T;
}
