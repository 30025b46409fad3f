// Form fields shared by the set-up forms: a labelled field and a select of values.

import { h } from "./dom";

/** A select with id `id` offering `values`, each shown through `text`. */
export function select(id: string, values: readonly (string | number)[], text: (v: string) => string = (v) => v): HTMLSelectElement {
  return h("select", { id }, ...values.map((v) => h("option", { value: v }, text(String(v)))));
}

/** `control` under its label. */
export function field(text: string, control: HTMLElement): HTMLElement {
  return h("label", { class: "field" }, h("span", {}, text), control);
}

/** A select of seat `n`'s player: "human" (a person) or one of `bots`. */
export function seatPicker(n: number, bots: readonly string[]): HTMLElement {
  return field(`Seat ${n + 1}`, select(`seat-${n}`, ["human", ...bots], (v) => (v === "human" ? "a person" : `${v} bot`)));
}

/** What each seat picker under `box` chose, seats 2 to `players`. */
export function seatChoices(box: HTMLElement, players: number): string[] {
  return Array.from({ length: players - 1 }, (_, i) => (box.querySelector(`#seat-${i + 1}`) as HTMLSelectElement | null)?.value ?? "human");
}
