// lodash (a UMD utility belt inside a CommonJS wrapper): grouping, sorting,
// deep cloning and templates over generated records.
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
export function unit() {
  const copy = _.cloneDeep(records);
  const groups = _.groupBy(copy, 'kind');
  const totals = _.mapValues(groups, (rows) => _.sumBy(rows, (r) => r.nested.price * r.nested.qty));
  const sorted = _.sortBy(copy, ['kind', (r) => -r.nested.price, 'id']);
  const tags = _.uniq(_.flatMap(copy, 'tags'));
  const html = _.map(_.take(sorted, 500), (r) => render({ ...r, total: totals[r.kind] })).join('');
  return html.length + tags.length + _.keys(_.pickBy(totals, _.isNumber)).length;
}
