// Tiny DOM helpers. Text always goes in through textContent / createTextNode, never innerHTML:
// nicknames and room names come from other people.

/**
 * Create an element: h("button", {class: "x", onclick: fn, "aria-pressed": "true"}, "text", child)
 * Attributes with value null/undefined/false are left out; `true` sets an empty attribute.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace all children of `el`. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** A translated sentence with elements in it: `format`'s %(name)s placeholders filled from
 * `values` (text or elements), as children for h() — the words around an element stay one
 * sentence for the translators, in whatever order their language puts them. */
export function fill(format, values) {
  return String(format).split(/(%\(\w+\)s)/).filter(Boolean).map((part) => {
    const m = /^%\((\w+)\)s$/.exec(part);
    return m && m[1] in values ? values[m[1]] : part;
  });
}
