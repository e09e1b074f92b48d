export { type ChartPoint, escapeXml, type PriceChartInput, priceChartSvg } from './chart.js';
export { explorePlugin } from './page.js';
