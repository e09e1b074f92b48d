/**
 * The price chart, drawn as one SVG string: a step line per retailer, the best price as a band beneath them,
 * and the window's low, high and 30-day average as marked horizontal lines. Pure: the same
 * input gives the same bytes, so the API can cache the image and the page can inline it.
 */

export interface ChartPoint {
  date: string;
  price: number;
}

export interface PriceChartInput {
  /** each retailer's daily price (see retailerPriceLines) */
  lines: readonly { retailer: string; points: readonly ChartPoint[] }[];
  /** the daily best price (price intelligence history) */
  best: readonly ChartPoint[];
  /** the window: `days` days ending on `until` (YYYY-MM-DD) */
  days: number;
  until: string;
  width: number;
  height: number;
  /** 30-day average of the best price, drawn as a mark when known */
  avg30?: number | null;
  /** the verdict in plain words, shown under the title */
  verdict?: string | null;
  title?: string;
  currency?: string;
}

/** Colours that stay apart for common colour-vision deficiencies (Okabe–Ito), then greys. */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#777777'];
const BEST = '#111111';
const DAY_MS = 86_400_000;

const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/** Text safe inside SVG elements and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );
}

const money = (n: number, currency: string) =>
  `${currency === 'USD' ? '$' : `${currency} `}${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const fixed = (n: number) => (Math.round(n * 10) / 10).toString();

/**
 * A step path through `points` (a price holds until the next point), inside the window.
 * Empty string when no point falls inside.
 */
function stepPath(
  points: readonly ChartPoint[],
  x: (day: number) => number,
  y: (p: number) => number,
  first: number,
  last: number,
): string {
  let d = '';
  let prevY: number | null = null;
  for (const p of points) {
    const day = dayNumber(p.date);
    if (!(day >= first && day <= last)) continue;
    const px = fixed(x(day));
    const py = fixed(y(p.price));
    if (prevY === null) d += `M${px} ${py}`;
    else if (prevY !== y(p.price)) d += `H${px}V${py}`;
    prevY = y(p.price);
  }
  // the last price holds to the end of its day
  if (prevY !== null) d += `H${fixed(x(last + 1))}`;
  return d;
}

/** The chart as an SVG document (width × height px). */
export function priceChartSvg(input: PriceChartInput): string {
  const { width, height, days } = input;
  const currency = input.currency ?? 'USD';
  const last = dayNumber(input.until);
  const first = last - days + 1;
  const inWindow = (p: ChartPoint) => {
    const d = dayNumber(p.date);
    return d >= first && d <= last;
  };
  const prices: number[] = [];
  for (const line of input.lines) for (const p of line.points) if (inWindow(p)) prices.push(p.price);
  const best = input.best.filter(inWindow);
  for (const p of best) prices.push(p.price);
  const low = best.length ? Math.min(...best.map((p) => p.price)) : null;
  const high = best.length ? Math.max(...best.map((p) => p.price)) : null;
  const avg = input.avg30 ?? null;
  if (avg !== null) prices.push(avg);

  const top = input.title || input.verdict ? 44 : 12;
  const legendRows = Math.ceil((input.lines.length + 1) / 4);
  const bottom = 22 + legendRows * 16;
  const left = 64;
  const right = 12;
  const plotW = Math.max(10, width - left - right);
  const plotH = Math.max(10, height - top - bottom);
  let lo = prices.length ? Math.min(...prices) : 0;
  let hi = prices.length ? Math.max(...prices) : 1;
  // a flat price still needs a band to sit in
  const pad = hi > lo ? (hi - lo) * 0.08 : Math.max(1, lo * 0.05);
  lo = Math.max(0, lo - pad);
  hi += pad;
  const x = (day: number) => left + ((day - first) / days) * plotW;
  const y = (price: number) => top + (1 - (price - lo) / (hi - lo)) * plotH;

  const out: string[] = [];
  const label = `${input.title ? `${input.title}: ` : ''}price history, last ${days} days${input.verdict ? `; ${input.verdict}` : ''}`;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(label)}" font-family="system-ui, sans-serif" font-size="11">`,
    `<title>${escapeXml(label)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  );
  if (input.title)
    out.push(
      `<text x="${left}" y="16" font-size="13" font-weight="600" fill="#111">${escapeXml(input.title)}</text>`,
    );
  if (input.verdict)
    out.push(
      `<text class="verdict" x="${left}" y="34" font-size="12" fill="#333">${escapeXml(input.verdict)}</text>`,
    );
  // frame and the price axis: the ends of the band
  out.push(
    `<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#ccc"/>`,
    `<text x="${left - 6}" y="${top + 4}" text-anchor="end" fill="#555">${escapeXml(money(hi, currency))}</text>`,
    `<text x="${left - 6}" y="${top + plotH}" text-anchor="end" fill="#555">${escapeXml(money(lo, currency))}</text>`,
    `<text x="${left}" y="${top + plotH + 14}" fill="#555">${new Date(first * DAY_MS).toISOString().slice(0, 10)}</text>`,
    `<text x="${left + plotW}" y="${top + plotH + 14}" text-anchor="end" fill="#555">${input.until.slice(0, 10)}</text>`,
  );
  // marks at one price share a line and a label ("low = high"); labels closer than a text
  // line to the one above move down so they never overprint
  const marks: { names: string[]; texts: string[]; value: number }[] = [];
  for (const [name, value, text] of [
    ['high', high, 'high'],
    ['avg30', avg, '30-day avg'],
    ['low', low, 'low'],
  ] as const) {
    if (value === null) continue;
    const same = marks.find((m) => Math.abs(m.value - value) < 0.005);
    if (same) {
      same.names.push(name);
      same.texts.push(text);
    } else marks.push({ names: [name], texts: [text], value });
  }
  let lastLabel = Number.NEGATIVE_INFINITY;
  for (const m of marks) {
    const py = y(m.value);
    const labelY = Math.max(py - 3, lastLabel + 12);
    lastLabel = labelY;
    for (const name of m.names)
      out.push(
        `<line class="mark" data-mark="${name}" x1="${left}" x2="${left + plotW}" y1="${fixed(py)}" y2="${fixed(py)}" stroke="#888" stroke-dasharray="${name === 'avg30' ? '6 3' : '2 3'}"/>`,
      );
    out.push(
      `<text x="${left + plotW - 4}" y="${fixed(labelY)}" text-anchor="end" fill="#555">${escapeXml(`${m.texts.join(' = ')} ${money(m.value, currency)}`)}</text>`,
    );
  }
  if (prices.length === 0)
    out.push(
      `<text x="${left + plotW / 2}" y="${top + plotH / 2}" text-anchor="middle" fill="#555">no price history in this window</text>`,
    );

  /** A dot on a line's latest price: a line of one day is otherwise too short to see. */
  const endDot = (points: readonly ChartPoint[], from: number, to: number, color: string) => {
    const lastPoint = points
      .filter((p) => {
        const d = dayNumber(p.date);
        return d >= from && d <= to;
      })
      .at(-1);
    return lastPoint
      ? `<circle cx="${fixed(x(to + 1))}" cy="${fixed(y(lastPoint.price))}" r="3" fill="${color}"/>`
      : '';
  };
  const legend: { name: string; color: string; best?: boolean }[] = [];
  // the best price first, as a broad band: each retailer's line stays visible on top of it
  const bestPath = stepPath(best, x, y, first, last);
  if (bestPath)
    out.push(
      `<path class="line best" data-retailer="best price" d="${bestPath}" fill="none" stroke="${BEST}" stroke-opacity="0.28" stroke-width="7" stroke-linejoin="round"/>`,
      endDot(best, first, last, BEST),
    );
  input.lines.forEach((line, i) => {
    const color = PALETTE[i % PALETTE.length] as string;
    legend.push({ name: line.retailer, color });
    const d = stepPath(line.points, x, y, first, last);
    if (d)
      out.push(
        `<path class="line retailer" data-retailer="${escapeXml(line.retailer)}" d="${d}" fill="none" stroke="${color}" stroke-width="1.5"/>`,
        endDot(line.points, first, last, color),
      );
  });
  legend.push({ name: 'best price', color: BEST, best: true });
  const colW = Math.max(80, plotW / 4);
  legend.forEach((entry, i) => {
    const lx = left + (i % 4) * colW;
    const ly = top + plotH + 30 + Math.floor(i / 4) * 16;
    out.push(
      `<line x1="${fixed(lx)}" x2="${fixed(lx + 16)}" y1="${ly - 4}" y2="${ly - 4}" stroke="${entry.color}" stroke-width="${entry.best ? 7 : 1.5}"${entry.best ? ' stroke-opacity="0.28"' : ''}/>`,
      `<text x="${fixed(lx + 20)}" y="${ly}" fill="#333">${escapeXml(entry.name)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n');
}
