// Takes the README's screenshots of the three views into docs/: explore.png, play.png,
// sequences.png, and the same at a phone's size (390×844) with -phone. Run: npm run screenshots (in e2e/).
import path from "node:path";
import { mkdirSync } from "node:fs";
import { root, startServer, startBrowser, settled } from "./harness.mjs";

const docs = path.join(root, "docs");
mkdirSync(docs, { recursive: true });
const server = await startServer();
try {
  for (const [viewport, suffix] of [
    [{ width: 1200, height: 820 }, ""],
    [{ width: 390, height: 844 }, "-phone"],
  ]) {
    const browser = await startBrowser(viewport);
    try {
      const page = await browser.context.newPage();

      // Tic-tac-toe with o to move: c1 holds the tie, every other move loses at once.
      await page.goto(`${server.url}#explore`);
      await page.waitForSelector("#explore-moves tbody tr.value-win");
      await page.waitForSelector("#explore-catalog option:nth-child(3)", { state: "attached" });
      await page.fill("#explore-game", "mnk:3,3,3");
      await page.fill("#explore-position", "x.o.x....");
      await page.click("#explore-form button[type=submit]");
      await page.waitForSelector("#explore-visual .board button.value-draw");
      await page.screenshot({ path: path.join(docs, `explore${suffix}.png`) });

      // A tic-tac-toe game in progress with the hints shown: x in the centre, the engine's
      // reply, then x in a corner.
      await page.goto(`${server.url}#play`);
      await page.waitForSelector('#play-board .board button[data-cell="b2"][data-move]');
      await page.click('#play-board .board button[data-cell="b2"]');
      await settled(page);
      const corner = await page.locator("#play-board .board button[data-move]").first();
      await corner.click();
      await settled(page);
      await page.click("#play-hint");
      await page.waitForFunction(() => document.getElementById("play-chart").dataset.points?.split(",").length === 5);
      await page.screenshot({ path: path.join(docs, `play${suffix}.png`), fullPage: suffix !== "" });

      await page.goto(`${server.url}#sequences`);
      await page.waitForFunction(() => document.getElementById("sequences-plot").naturalWidth > 0);
      await page.screenshot({ path: path.join(docs, `sequences${suffix}.png`) });
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.stop();
}
console.log(`screenshots saved in ${docs}`);
