// Hot functions with distinctive names, run from timers and a click.
function crunchPrimesUntouched(limit) {
  let count = 0;
  for (let n = 2; n < limit; n++) {
    let prime = true;
    for (let d = 2; d * d <= n; d++) {
      if (n % d === 0) {
        prime = false;
        break;
      }
    }
    if (prime) count++;
  }
  return count;
}

function shuffleAndSortUntouched(size) {
  const a = [];
  for (let i = 0; i < size; i++) a.push(Math.sin(i) * 1e6);
  return a.sort((x, y) => x - y)[0];
}

// ?one: the timer runs crunchPrimesUntouched alone (one clearly hot function).
const one = new URLSearchParams(location.search).has('one');
function tick() {
  const end = performance.now() + 15;
  let r = 0;
  while (performance.now() < end)
    r += crunchPrimesUntouched(3000) + (one ? 0 : shuffleAndSortUntouched(2000));
  document.getElementById('out').textContent = String(r);
  setTimeout(tick, 5);
}
setTimeout(tick, 0);

document.getElementById('go').addEventListener('click', function onGoClicked() {
  const end = performance.now() + 200;
  while (performance.now() < end) crunchPrimesUntouched(5000);
  const done = document.createElement('div');
  done.id = 'done';
  document.body.appendChild(done);
});
