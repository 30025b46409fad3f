// A small line chart drawn as SVG: one line per seat in the seat's colour.

import { seatColour } from "./colours";

/** A small SVG chart: one line per seat through `history` (one row of values per turn). */
export function lineChart(history: readonly (readonly number[])[], seats: number, label: string): SVGSVGElement {
  const width = 240;
  const height = 80;
  const most = Math.max(1, ...history.flat());
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  for (let seat = 0; seat < seats; seat += 1) {
    const points = history.map((counts, t) => `${(t / Math.max(1, history.length - 1)) * width},${height - ((counts[seat] ?? 0) / most) * (height - 4) - 2}`);
    const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    line.setAttribute("points", points.join(" "));
    line.setAttribute("stroke", seatColour(seat));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke-width", "2");
    svg.append(line);
  }
  return svg;
}
