// A module script that loads its hot loop with a dynamic import().
const { hotModule } = await import('./hot-dynamic.mjs');
setInterval(hotModule, 45);
