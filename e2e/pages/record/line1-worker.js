function hotLine1() { const end = performance.now() + 40; let x = 0; while (performance.now() < end) { x += Math.sqrt(x + 1); } return x; } setInterval(hotLine1, 45);
// A classic worker's script whose hot function is on line 1 (its `(` at
// column 18): rewritten, its frames keep the original columns.
