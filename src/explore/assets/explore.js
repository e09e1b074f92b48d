// Shelf explorer: a small ES module, no framework, no build step. It calls this server's /v2
// with the key the user gave it (localStorage only) and shows each panel's request as curl
// and as the matching MCP tool call.

const KEY_STORE = 'shelf.explore.key';
const FACETS = ['brand', 'product_type', 'retailer', 'price'];
const FACET_TITLES = { brand: 'Brand', product_type: 'Type', retailer: 'Retailer', price: 'Price' };
const $ = (id) => document.getElementById(id);

/** Builds an element: h('a', {href}, 'text', child…). Text is always text (never HTML). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const money = (n) =>
  n === null || n === undefined
    ? '—'
    : `$${Number(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

// ---- key ---------------------------------------------------------------------------------

/** `#key=…` (printed by `npm start` for the demo) moves to localStorage and leaves the URL. */
function takeKeyFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const key = params.get('key');
  if (!key) return;
  localStorage.setItem(KEY_STORE, key);
  params.delete('key');
  const rest = params.toString();
  history.replaceState(null, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
}
const apiKey = () => localStorage.getItem(KEY_STORE) || '';

function status(text, isError = false) {
  const el = $('status');
  el.textContent = text;
  el.classList.toggle('error', isError);
}

// ---- requests ----------------------------------------------------------------------------

/** One API call, remembered with its curl form for the panel that shows it. */
async function api(method, path, body) {
  const headers = { 'X-API-Key': apiKey() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const isSvg = (response.headers.get('content-type') || '').includes('svg');
  const payload = isSvg && response.ok ? await response.text() : await response.json().catch(() => null);
  if (!response.ok) {
    const message = payload?.error?.message || `HTTP ${response.status}`;
    throw Object.assign(new Error(message), { status: response.status });
  }
  return payload;
}

function curlOf(method, path, body) {
  const url = new URL(path, location.origin).toString();
  const parts = [`curl -s${method === 'GET' ? '' : ` -X ${method}`} -H "X-API-Key: $SHELF_API_KEY"`];
  if (body !== undefined)
    parts.push(`-H "Content-Type: application/json" -d '${JSON.stringify(body).replaceAll("'", "'\\''")}'`);
  parts.push(`"${url}"`);
  return parts.join(' ');
}

/** A `Request` disclosure: curl and the MCP tool call that answers the same question. */
function requestBlock(details, calls) {
  const target = details ?? h('details', { class: 'request' });
  target.replaceChildren(h('summary', {}, 'Request'));
  for (const call of calls) {
    const curl = curlOf(call.method, call.path, call.body);
    const mcp = call.tool ? JSON.stringify({ name: call.tool, arguments: call.args }, null, 1) : null;
    target.append(
      h('p', {}, 'curl ', copyButton(curl)),
      h('pre', { class: 'curl' }, curl),
      mcp ? h('p', {}, 'MCP tools/call ', copyButton(mcp)) : null,
      mcp ? h('pre', { class: 'mcp' }, mcp) : null,
    );
  }
  return target;
}

function copyButton(text) {
  return h(
    'button',
    {
      type: 'button',
      onclick: async (event) => {
        const button = event.currentTarget;
        try {
          await navigator.clipboard.writeText(text);
          button.textContent = 'Copied';
        } catch {
          button.textContent = 'Select the text to copy';
        }
      },
    },
    'Copy',
  );
}

// ---- search ------------------------------------------------------------------------------

const state = {
  query: '',
  mode: 'keyword',
  /** facet selections: brand/product_type/retailer slugs, price {min,max} */
  filters: {},
  /** constraints a natural-language query set, made explicit after a chip was removed */
  pinned: {},
  interpretation: null,
  /** the one product type the results are narrowed to, and the spec keys faceted for it */
  specType: null,
};
/** attribute schemas by product type slug: fetched once per page */
const schemas = new Map();
const SPEC_FACETS = 6;
let searchSeq = 0;

function searchBody() {
  const filters = { ...state.pinned, ...state.filters };
  if (state.pinned.specs || state.filters.specs)
    filters.specs = { ...(state.pinned.specs ?? {}), ...(state.filters.specs ?? {}) };
  for (const [k, v] of Object.entries(filters)) if (v === undefined) delete filters[k];
  return {
    query: state.query || undefined,
    mode: state.mode,
    filters: Object.keys(filters).length ? filters : undefined,
    facets: [...FACETS, ...(state.specType?.specs ?? []).map((s) => `spec:${s.key}`)],
    pagination: { limit: 20 },
  };
}

async function runSearch() {
  if (!apiKey()) {
    status('Paste an API key above to search (npm start prints a demo link with one).');
    return;
  }
  const seq = ++searchSeq;
  const body = searchBody();
  status('Searching…');
  let result;
  try {
    result = await api('POST', '/v2/products/search', body);
  } catch (error) {
    if (seq === searchSeq) status(`Search failed: ${error.message}`, true);
    return;
  }
  if (seq !== searchSeq) return; // a newer keystroke's answer wins
  state.interpretation = result.meta?.interpretation ?? null;
  if (await followType(result, seq)) return; // asked again with the new type's spec facets
  renderChips();
  renderFacets(result.facets ?? {});
  renderResults(result);
  const args = { query: state.query || '*' };
  if (state.filters.brand) args.brand = state.filters.brand[0];
  if (state.filters.product_type) args.product_type = state.filters.product_type[0];
  if (state.filters.price?.min !== undefined) args.min_price = state.filters.price.min;
  if (state.filters.price?.max !== undefined) args.max_price = state.filters.price.max;
  requestBlock($('search-request'), [
    {
      method: 'POST',
      path: '/v2/products/search',
      body,
      tool: state.mode === 'keyword' ? 'search_products' : 'semantic_search',
      args: state.mode === 'keyword' ? args : { query: state.query },
    },
  ]);
  status('');
}

/**
 * The product type all results belong to: a chosen or understood type, or the only type
 * bucket when it counts every result. Null when the results mix types.
 */
function narrowedType(result) {
  const chosen = state.filters.product_type ?? state.pinned.product_type;
  if (chosen?.length === 1) return chosen[0];
  if (state.interpretation?.product_type) return state.interpretation.product_type.slug;
  const types = result.facets?.product_type ?? [];
  const total = result.pagination?.total ?? result.data.length;
  return types.length === 1 && types[0].count === total && total > 0 ? types[0].slug : null;
}

/**
 * Which spec keys a type is faceted on: its headline specs, then booleans and enums, then the
 * rest of its curated specs, at most SPEC_FACETS (a long list of groups helps nobody).
 */
function facetSpecs(schema) {
  const rank = (a) => (a.headline ? 0 : a.type === 'boolean' || a.type === 'enum' ? 1 : 2);
  return [...schema.curated_attributes]
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, SPEC_FACETS)
    .map((a) => ({ key: a.key, label: a.label, type: a.type }));
}

/** When the results narrowed to another type, loads its spec keys and searches again (true). */
async function followType(result, seq) {
  const slug = narrowedType(result);
  if ((state.specType?.slug ?? null) === slug) return false;
  if (!slug) {
    state.specType = null;
    return false;
  }
  let schema = schemas.get(slug);
  if (!schema) {
    try {
      schema = (await api('GET', `/v2/product-types/${encodeURIComponent(slug)}/attributes`)).data;
    } catch {
      schema = { curated_attributes: [] }; // no schema: no spec facets, the rest still works
    }
    schemas.set(slug, schema);
  }
  if (seq !== searchSeq) return true; // a newer search is already under way
  state.specType = { slug, specs: facetSpecs(schema) };
  if (!state.specType.specs.length) return false;
  runSearch();
  return true;
}

function renderResults(result) {
  const total = result.pagination?.total ?? result.data.length;
  $('result-count').textContent = `${total.toLocaleString('en-US')} product${total === 1 ? '' : 's'}`;
  $('results').replaceChildren(
    ...result.data.map((p) =>
      h(
        'li',
        {},
        h('a', { href: `#product=${p.id}`, 'data-product': p.id }, p.name),
        ' ',
        h('span', { class: 'price' }, money(p.current_best_price)),
        h(
          'div',
          { class: 'muted' },
          [p.brand?.name, p.product_type?.name, p.model_number].filter(Boolean).join(' · '),
        ),
      ),
    ),
  );
}

function bucketLabel(facet, b) {
  if (facet === 'price') return b.max === null ? `${money(b.min)}+` : `${money(b.min)}–${money(b.max)}`;
  if (facet.startsWith('spec:')) return specValueText(b.value);
  return b.name ?? b.value ?? b.slug;
}

const specValueText = (v) => ({ true: 'yes', false: 'no' })[String(v).toLowerCase()] ?? String(v);

function isSelected(facet, b) {
  if (facet.startsWith('spec:')) return (state.filters.specs?.[facet.slice(5)] ?? []).includes(b.value);
  if (facet === 'price')
    return state.filters.price?.min === b.min && (state.filters.price?.max ?? null) === b.max;
  return (state.filters[facet] ?? []).includes(b.slug ?? b.id);
}

/** A spec value chosen in a facet: the exact stored value, any of a group's values (OR). */
function toggleSpec(key, value) {
  const specs = { ...(state.filters.specs ?? {}) };
  const current = specs[key] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  if (next.length) specs[key] = next;
  else delete specs[key];
  state.filters.specs = Object.keys(specs).length ? specs : undefined;
  runSearch();
}

function toggleFacet(facet, b) {
  if (facet.startsWith('spec:')) return toggleSpec(facet.slice(5), b.value);
  if (facet === 'price') {
    state.filters.price = isSelected(facet, b)
      ? undefined
      : { min: b.min, ...(b.max === null ? {} : { max: b.max }) };
  } else {
    const value = b.slug ?? b.id;
    const current = state.filters[facet] ?? [];
    const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
    state.filters[facet] = next.length ? next : undefined;
  }
  runSearch();
}

function renderFacets(facets) {
  const blocks = [];
  const titles = { ...FACET_TITLES };
  for (const s of state.specType?.specs ?? []) titles[`spec:${s.key}`] = s.label;
  for (const facet of Object.keys(titles)) {
    const buckets = facets[facet] ?? [];
    if (!buckets.length) continue;
    const id = `facet-${facet.replace(/[^\w-]/g, '-')}`;
    blocks.push(
      h('h2', { id }, titles[facet]),
      h(
        'ul',
        { 'aria-labelledby': id, 'data-facet': facet },
        buckets.map((b) =>
          h(
            'li',
            {},
            h(
              'button',
              {
                type: 'button',
                'aria-pressed': isSelected(facet, b) ? 'true' : 'false',
                onclick: () => toggleFacet(facet, b),
              },
              h('span', {}, bucketLabel(facet, b)),
              h('span', { class: 'count' }, b.count.toLocaleString('en-US')),
            ),
          ),
        ),
      ),
    );
  }
  $('facets').replaceChildren(...blocks);
}

/** Chips: what the query was read as (removable), then pinned constraints and facet picks. */
function renderChips() {
  const chips = [];
  const i = state.interpretation;
  const chip = (text, remove, kind) =>
    h(
      'span',
      { class: 'chip', 'data-kind': kind },
      text,
      h('button', { type: 'button', 'aria-label': `remove ${text}`, onclick: remove }, '×'),
    );
  if (i) {
    if (i.product_type)
      chips.push(chip(`type: ${i.product_type.name}`, () => dropUnderstood('product_type'), 'understood'));
    if (i.brand) chips.push(chip(`brand: ${i.brand.name}`, () => dropUnderstood('brand'), 'understood'));
    if (i.price)
      chips.push(chip(`price: ${priceText(i.price)}`, () => dropUnderstood('price'), 'understood'));
    for (const s of i.specs ?? [])
      if (!(i.relaxed ?? []).includes(s.key))
        chips.push(chip(`${s.label}: ${specText(s)}`, () => dropUnderstood(`spec:${s.key}`), 'understood'));
  }
  for (const [key, value] of Object.entries(state.pinned)) {
    if (key === 'specs')
      for (const [spec, v] of Object.entries(value))
        chips.push(
          chip(
            `${spec}: ${specText(typeof v === 'object' ? v : { value: v })}`,
            () => unpin(`spec:${spec}`),
            'pinned',
          ),
        );
    else if (value !== undefined)
      chips.push(
        chip(
          `${key.replace('_', ' ')}: ${key === 'price' ? priceText(value) : value.join(', ')}`,
          () => unpin(key),
          'pinned',
        ),
      );
  }
  for (const [key, values] of Object.entries(state.filters.specs ?? {})) {
    const label = state.specType?.specs.find((s) => s.key === key)?.label ?? key.replaceAll('_', ' ');
    for (const value of values)
      chips.push(chip(`${label}: ${specValueText(value)}`, () => toggleSpec(key, value), 'facet'));
  }
  $('chips').replaceChildren(...chips);
}

const priceText = (p) =>
  p.min !== undefined && p.max !== undefined
    ? `${money(p.min)}–${money(p.max)}`
    : p.max !== undefined
      ? `under ${money(p.max)}`
      : `over ${money(p.min)}`;
const specText = (s) =>
  s.value !== undefined
    ? String(s.value)
    : s.min !== undefined && s.max !== undefined
      ? `${s.min}–${s.max}`
      : s.max !== undefined
        ? `≤ ${s.max}`
        : `≥ ${s.min}`;

/**
 * Removing an understood constraint: the others become explicit filters and the query keeps
 * only its leftover words, so the server cannot read the removed one back in.
 */
function dropUnderstood(which) {
  const i = state.interpretation;
  if (!i) return;
  const pinned = { ...state.pinned };
  if (i.product_type && which !== 'product_type') pinned.product_type = [i.product_type.slug];
  if (i.brand && which !== 'brand') pinned.brand = [i.brand.slug];
  if (i.price && which !== 'price') pinned.price = i.price;
  const specs = { ...(pinned.specs ?? {}) };
  for (const s of i.specs ?? []) {
    if (which === `spec:${s.key}` || (i.relaxed ?? []).includes(s.key)) continue;
    specs[s.key] = s.value !== undefined ? s.value : { min: s.min, max: s.max };
  }
  if (Object.keys(specs).length) pinned.specs = specs;
  state.pinned = pinned;
  state.query = (i.leftover ?? []).join(' ');
  $('q').value = state.query;
  runSearch();
}

function unpin(which) {
  if (which.startsWith('spec:')) {
    const specs = { ...(state.pinned.specs ?? {}) };
    delete specs[which.slice(5)];
    state.pinned.specs = Object.keys(specs).length ? specs : undefined;
  } else state.pinned[which] = undefined;
  runSearch();
}

// ---- product page ------------------------------------------------------------------------

let chartDays = 90;

function panel(title, id, ...content) {
  return h(
    'section',
    { class: 'panel', id, 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title),
    ...content,
  );
}

async function openProduct(id) {
  $('search-view').hidden = true;
  const view = $('product-view');
  view.hidden = false;
  view.replaceChildren(
    h('p', {}, h('a', { href: '#', id: 'back' }, '← Back to results')),
    h('p', { class: 'muted' }, 'Loading…'),
  );
  const productPath = `/v2/products/${id}?include_offers=true&include_variants=true&include_knowledge=true`;
  let product;
  try {
    product = (await api('GET', productPath)).data;
  } catch (error) {
    view.replaceChildren(
      h('p', {}, h('a', { href: '#' }, '← Back')),
      h('p', { class: 'status error' }, `Could not load the product: ${error.message}`),
    );
    return;
  }
  document.title = `${product.name} · Shelf explorer`;
  const head = h(
    'div',
    { class: 'product-head' },
    product.image_url ? h('img', { src: product.image_url, alt: '' }) : null,
    h(
      'div',
      {},
      h('h1', {}, product.name),
      h(
        'p',
        { class: 'muted' },
        [
          product.brand?.name,
          product.product_type?.name,
          product.model_number && `model ${product.model_number}`,
        ]
          .filter(Boolean)
          .join(' · '),
      ),
      h('p', {}, 'Best price ', h('span', { class: 'price' }, money(product.current_best_price))),
    ),
  );
  view.replaceChildren(h('p', {}, h('a', { href: '#', id: 'back' }, '← Back to results')), head);
  view.append(offersPanel(product, productPath), chartPanel(product));
  const rest = await Promise.allSettled([
    specsPanel(product),
    variantsPanel(product, productPath),
    relationshipsPanel(product),
    knowledgePanel(product, productPath),
  ]);
  for (const r of rest) if (r.status === 'fulfilled' && r.value) view.append(r.value);
  $('back')?.focus();
}

function offersPanel(product, path) {
  const offers = [...(product.offers ?? [])].sort((a, b) =>
    a.in_stock !== b.in_stock ? (a.in_stock ? -1 : 1) : (a.price ?? Infinity) - (b.price ?? Infinity),
  );
  return panel(
    'Offers',
    'offers',
    offers.length
      ? h(
          'table',
          {},
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'Retailer'),
              h('th', {}, 'Price'),
              h('th', {}, 'Stock'),
              h('th', {}, 'Seen'),
            ),
          ),
          h(
            'tbody',
            {},
            offers.map((o) =>
              h(
                'tr',
                { class: o.in_stock ? '' : 'out' },
                h(
                  'td',
                  {},
                  o.retailer_url
                    ? h('a', { href: o.retailer_url, rel: 'noopener noreferrer nofollow' }, o.retailer_name)
                    : o.retailer_name,
                ),
                h('td', { class: 'num' }, money(o.price)),
                h('td', {}, o.in_stock ? 'in stock' : o.availability || 'out of stock'),
                h('td', {}, (o.last_seen_at || '').slice(0, 10)),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No retailer lists this product.'),
    requestBlock(null, [{ method: 'GET', path, tool: 'compare_prices', args: { product_id: product.id } }]),
  );
}

function chartPanel(product) {
  const chart = h('div', { class: 'chart', id: 'chart' });
  const verdict = h('p', { class: 'verdict', id: 'verdict' });
  const summary = h('p', { class: 'muted', id: 'price-summary' });
  const request = h('details', { class: 'request' });
  const buttons = [30, 90, 365].map((days) =>
    h(
      'button',
      {
        type: 'button',
        'data-days': days,
        'aria-pressed': days === chartDays ? 'true' : 'false',
        onclick: () => load(days),
      },
      `${days} days`,
    ),
  );
  async function load(days) {
    chartDays = days;
    for (const b of buttons) b.setAttribute('aria-pressed', String(Number(b.dataset.days) === days));
    const width = Math.max(240, Math.min(1000, Math.round(chart.clientWidth || 720)));
    const svgPath = `/v2/products/${product.id}/prices.svg?days=${days}&width=${width}&height=320&title=false`;
    const jsonPath = `/v2/products/${product.id}/prices?days=${days}`;
    chart.setAttribute('aria-busy', 'true');
    try {
      const [svg, prices] = await Promise.all([api('GET', svgPath), api('GET', jsonPath)]);
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      chart.replaceChildren(document.importNode(doc.documentElement, true));
      chart.dataset.days = String(days);
      chart.dataset.width = String(width);
      const v = prices.data.verdict;
      verdict.textContent = v.text;
      verdict.classList.toggle('good', v.near_low);
      const s = prices.data.summary;
      summary.textContent = `Low ${money(v.window_low)} · high ${money(v.window_high)} in ${days} days · 30-day average ${money(s.avg_30d)} · lowest ever ${money(s.min_ever)} · trend ${s.trend}`;
      requestBlock(request, [
        { method: 'GET', path: jsonPath, tool: 'get_price_history', args: { product_id: product.id, days } },
        { method: 'GET', path: svgPath },
      ]);
    } catch (error) {
      chart.replaceChildren(
        h('p', { class: 'status error' }, `Could not load the price chart: ${error.message}`),
      );
    } finally {
      chart.removeAttribute('aria-busy');
    }
  }
  // the image is drawn at the width it is shown at: redraw when that changes by more than 15 %
  let resizeTimer = 0;
  new ResizeObserver(() => {
    const drawn = Number(chart.dataset.width || 0);
    const now = chart.clientWidth;
    if (!drawn || !now || Math.abs(now - drawn) / drawn < 0.15) return;
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => load(chartDays), 200);
  }).observe(chart);
  const section = panel(
    'Price history',
    'prices',
    h('div', { class: 'chart-controls', role: 'group', 'aria-label': 'Chart window' }, buttons),
    verdict,
    chart,
    summary,
    request,
  );
  queueMicrotask(() => load(chartDays));
  return section;
}

async function specsPanel(product) {
  const path = `/v2/products/${product.id}/attributes`;
  const data = (await api('GET', path)).data;
  const groups = { identity: 'Identity', variant: 'Variant', spec: 'Specifications' };
  const blocks = [];
  for (const [role, title] of Object.entries(groups)) {
    const attrs = data.attributes.filter((a) => a.role === role);
    if (!attrs.length) continue;
    blocks.push(
      h('h3', {}, title),
      h(
        'table',
        {},
        h(
          'tbody',
          {},
          attrs.map((a) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, a.key.replaceAll('_', ' ')),
              h('td', {}, a.unit && !String(a.value).endsWith(a.unit) ? `${a.value} ${a.unit}` : a.value),
            ),
          ),
        ),
      ),
    );
  }
  if (!blocks.length) blocks.push(h('p', { class: 'muted' }, 'No typed attributes.'));
  return panel(
    'Specifications',
    'specs',
    ...blocks,
    requestBlock(null, [
      { method: 'GET', path, tool: 'get_product_specs', args: { product_id: product.id } },
    ]),
  );
}

async function variantsPanel(product, path) {
  const variants = product.variants ?? [];
  const group = product.product_group;
  if (!group && !variants.length) return null;
  return panel(
    'Variant group',
    'variants',
    group
      ? h(
          'p',
          {},
          group.name,
          group.variant_count ? h('span', { class: 'muted' }, ` · ${group.variant_count} variants`) : null,
        )
      : null,
    variants.length
      ? h(
          'ul',
          {},
          variants.map((v) =>
            h(
              'li',
              {},
              v.id === product.id ? h('strong', {}, v.name) : h('a', { href: `#product=${v.id}` }, v.name),
              ' ',
              h('span', { class: 'price' }, money(v.current_best_price)),
            ),
          ),
        )
      : null,
    requestBlock(null, [{ method: 'GET', path, tool: 'lookup_product', args: { id: product.id } }]),
  );
}

async function relationshipsPanel(product) {
  const path = `/v2/products/${product.id}/relationships`;
  const data = (await api('GET', path)).data;
  const kinds = [
    ['successor', 'Successor'],
    ['predecessor', 'Predecessor'],
    ['similar', 'Similar'],
    ['accessories', 'Accessories'],
    ['consumables', 'Consumables'],
    ['series', 'Same series'],
  ];
  const blocks = [];
  for (const [key, title] of kinds) {
    const value = data[key];
    const items = Array.isArray(value) ? value : value ? [value] : [];
    if (!items.length) continue;
    blocks.push(
      h('h3', {}, title),
      h(
        'ul',
        {},
        items.map((r) =>
          h(
            'li',
            {},
            h('a', { href: `#product=${r.id ?? r.product_id}` }, r.name ?? r.product_name ?? r.id),
            r.current_best_price !== undefined
              ? [' ', h('span', { class: 'price' }, money(r.current_best_price))]
              : null,
          ),
        ),
      ),
    );
  }
  if (!blocks.length) blocks.push(h('p', { class: 'muted' }, 'No related products recorded.'));
  return panel(
    'Relationships',
    'relationships',
    ...blocks,
    requestBlock(null, [
      { method: 'GET', path, tool: 'find_alternatives', args: { product_id: product.id } },
    ]),
  );
}

async function knowledgePanel(product, path) {
  const k = product.knowledge ?? {};
  const blocks = [];
  const entries = (title, list) => {
    if (!list?.length) return;
    blocks.push(
      h('h3', {}, title),
      ...list.map((e) =>
        h(
          'article',
          {},
          h('strong', {}, e.data?.code ? `${e.data.code}: ${e.title}` : e.title),
          h('p', {}, e.content),
        ),
      ),
    );
  };
  entries('Maintenance', k.maintenance);
  const calls = [{ method: 'GET', path, tool: 'get_product_knowledge', args: { product_id: product.id } }];
  const type = product.product_type?.slug;
  if (type) {
    const codesPath = `/v2/product-types/${encodeURIComponent(type)}/knowledge?type=error_code${product.brand?.slug ? `&brand=${encodeURIComponent(product.brand.slug)}` : ''}`;
    try {
      entries('Error codes', (await api('GET', codesPath)).data.knowledge);
      calls.push({
        method: 'GET',
        path: codesPath,
        tool: 'lookup_error_code',
        args: { brand: product.brand?.slug ?? '', product_type: type, code: '<code>' },
      });
    } catch {
      // a plan without knowledge: the note below says so
    }
  }
  entries('Buying guide', k.buying_guide);
  if (!blocks.length)
    blocks.push(
      h(
        'p',
        { class: 'muted' },
        'No maintenance, error-code or buying-guide entries for this product (or this key’s plan does not include knowledge).',
      ),
    );
  return panel('Knowledge', 'knowledge', h('div', { class: 'knowledge' }, blocks), requestBlock(null, calls));
}

// ---- wiring ------------------------------------------------------------------------------

function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get('product');
  if (id) return openProduct(id);
  $('product-view').hidden = true;
  $('search-view').hidden = false;
  document.title = 'Shelf explorer';
}

function start() {
  takeKeyFromFragment();
  $('key').value = apiKey();
  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    localStorage.setItem(KEY_STORE, $('key').value.trim());
    status('Key saved in this browser.');
    runSearch();
  });
  $('key-forget').addEventListener('click', () => {
    localStorage.removeItem(KEY_STORE);
    $('key').value = '';
    status('Key removed from this browser.');
  });
  let timer = 0;
  $('q').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      state.query = $('q').value.trim();
      state.pinned = {};
      runSearch();
    }, 150);
  });
  $('search-form').addEventListener('submit', (event) => event.preventDefault());
  for (const radio of document.querySelectorAll('input[name="mode"]'))
    radio.addEventListener('change', () => {
      state.mode = radio.value;
      runSearch();
    });
  window.addEventListener('hashchange', route);
  route();
  runSearch();
}

start();
