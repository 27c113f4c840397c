// The same shapes in an external classic script.
const keys = (o) => o && { keys: Object.keys(o) };
let n = 0;
while (n < 3) n++;
const Made = ((B) => class extends B {})(Object);
window.shapesOk = !!keys({ a: 1 }) && n === 3 && typeof Made === 'function';
