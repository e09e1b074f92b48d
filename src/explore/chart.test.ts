import { describe, expect, it } from 'vitest';
import { escapeXml, priceChartSvg } from './chart.js';

const base = { days: 5, until: '2026-11-05', width: 600, height: 300 };
const paths = (svg: string) => [
  ...svg.matchAll(/<path class="line (retailer|best)" data-retailer="([^"]*)" d="([^"]*)"/g),
];

describe('priceChartSvg', () => {
  it('draws one path per retailer plus the best price, and low/high/30-day-average marks', () => {
    const svg = priceChartSvg({
      ...base,
      lines: [
        {
          retailer: 'Northgate',
          points: [
            { date: '2026-11-01', price: 100 },
            { date: '2026-11-03', price: 90 },
          ],
        },
        { retailer: 'Voltmart', points: [{ date: '2026-11-02', price: 95 }] },
      ],
      best: [
        { date: '2026-11-01', price: 100 },
        { date: '2026-11-02', price: 95 },
        { date: '2026-11-03', price: 90 },
      ],
      avg30: 95,
      verdict: 'lowest price in 5 days',
      title: 'Bosch dishwasher',
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"')).toBe(true);
    expect(paths(svg).map((m) => [m[1], m[2]])).toEqual([
      ['best', 'best price'],
      ['retailer', 'Northgate'],
      ['retailer', 'Voltmart'],
    ]);
    expect([...svg.matchAll(/data-mark="(\w+)"/g)].map((m) => m[1])).toEqual(['high', 'avg30', 'low']);
    expect(svg).toContain('lowest price in 5 days');
    expect(svg).toContain('low $90.00');
    expect(svg).toContain('high $100.00');
  });

  it('a step line: the price holds until the next point, then runs to the end of the window', () => {
    const svg = priceChartSvg({
      ...base,
      lines: [],
      best: [
        { date: '2026-11-01', price: 100 },
        { date: '2026-11-03', price: 90 },
      ],
    });
    const d = paths(svg)[0]?.[3] ?? '';
    expect(d).toMatch(/^M[\d.]+ [\d.]+H[\d.]+V[\d.]+H[\d.]+$/);
  });

  it('one observation and a flat price still draw inside the frame', () => {
    const svg = priceChartSvg({
      ...base,
      lines: [{ retailer: 'A', points: [{ date: '2026-11-05', price: 42 }] }],
      best: [{ date: '2026-11-05', price: 42 }],
    });
    for (const m of paths(svg)) {
      const ys = [...m[3]!.matchAll(/[MV][\d.]+ ?([\d.]+)?/g)];
      expect(ys.length).toBeGreaterThan(0);
    }
    expect(svg).not.toContain('NaN');
    expect(svg).not.toContain('Infinity');
  });

  it('no offers: a frame with a note, no lines, no marks', () => {
    const svg = priceChartSvg({ ...base, lines: [], best: [] });
    expect(paths(svg)).toHaveLength(0);
    expect(svg).not.toContain('data-mark');
    expect(svg).toContain('no price history in this window');
    expect(svg).not.toContain('NaN');
  });

  it('points outside the window are left out', () => {
    const svg = priceChartSvg({
      ...base,
      lines: [{ retailer: 'Old', points: [{ date: '2026-10-01', price: 5 }] }],
      best: [],
    });
    expect(paths(svg)).toHaveLength(0);
  });

  it('escapes retailer names and titles (regression: markup in a feed name must not reach the SVG)', () => {
    const svg = priceChartSvg({
      ...base,
      title: '<script>x</script>',
      lines: [{ retailer: 'A&B "Shop"', points: [{ date: '2026-11-01', price: 1 }] }],
      best: [],
    });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain(escapeXml('A&B "Shop"'));
  });
});

describe('priceChartSvg marks', () => {
  it('marks at one price share one label (regression: low, high and average overprinted each other)', () => {
    const svg = priceChartSvg({ ...base, lines: [], best: [{ date: '2026-11-01', price: 42 }], avg30: 42 });
    expect([...svg.matchAll(/data-mark="(\w+)"/g)].map((m) => m[1])).toEqual(['high', 'avg30', 'low']);
    expect(svg).toContain('high = 30-day avg = low $42.00');
  });
});
