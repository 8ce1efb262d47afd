import { launch, serve, watchErrors } from './chromium.ts';
const server = await serve('/work/wt-web/out/www');
const b = await launch();
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
const errs = watchErrors(p);
await p.goto(server.url);
await p.waitForSelector('body[data-ready="true"]', { state: 'attached' });
await p.click('#load-sample');
await p.click('input[value="materialize"]');
await p.click('#run');
await p.waitForTimeout(2000);
console.log('error:', await p.textContent('#error'));
await p.click('#grep');
await p.waitForTimeout(500);
await p.screenshot({ path: '/tmp/pg.png' });
await p.setViewportSize({ width: 420, height: 900 });
await p.screenshot({ path: '/tmp/pg-narrow.png', fullPage: true });
console.log(
  errs,
  await p.evaluate(() => [document.documentElement.scrollWidth, innerWidth]),
  await p.textContent('#error'),
);
await b.close();
await server.close();
