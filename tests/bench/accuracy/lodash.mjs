// lodash (a UMD utility belt inside a CommonJS wrapper): grouping, sorting,
// deep cloning and templates over generated records. The unit runs in named
// phases (wpPhase*): `unit(time)` lets the bench time each one with no
// profiler, the ground truth the profilers' inclusive shares are held to.
import _ from 'lodash';

export const inputs = [];
let records = [];
const render = _.template('<li class="<%= kind %>"><%- name %>: <%= total %></li>');
export function setup() {
  records = _.times(3000, (i) => ({
    id: i,
    name: `item ${i} <${i % 7}>`,
    kind: ['a', 'b', 'c', 'd'][i % 4],
    tags: _.range(i % 5).map((t) => `t${t}`),
    nested: { price: (i * 37) % 101, qty: i % 13, meta: { seen: i % 2 === 0 } },
  }));
}
function wpPhaseClone() {
  return _.cloneDeep(records);
}
function wpPhaseTotals(copy) {
  const groups = _.groupBy(copy, 'kind');
  return _.mapValues(groups, (rows) => _.sumBy(rows, (r) => r.nested.price * r.nested.qty));
}
function wpPhaseSort(copy) {
  return _.sortBy(copy, ['kind', (r) => -r.nested.price, 'id']);
}
function wpPhaseTags(copy) {
  return _.uniq(_.flatMap(copy, 'tags'));
}
function wpPhaseRender(sorted, totals) {
  return _.map(_.take(sorted, 500), (r) => render({ ...r, total: totals[r.kind] })).join('');
}
const direct = (f, ...args) => f(...args);
export function unit(time = direct) {
  const copy = time(wpPhaseClone);
  const totals = time(wpPhaseTotals, copy);
  const sorted = time(wpPhaseSort, copy);
  const tags = time(wpPhaseTags, copy);
  const html = time(wpPhaseRender, sorted, totals);
  return html.length + tags.length + _.keys(_.pickBy(totals, _.isNumber)).length;
}
