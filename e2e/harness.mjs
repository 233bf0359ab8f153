// Shared by the end-to-end test and the screenshot script: start `sprague serve` on a free port
// and a headless Chromium with a fresh profile.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The binary to test: $SPRAGUE_BIN, else the debug build. */
export const binary = process.env.SPRAGUE_BIN || path.join(root, "target", "debug", "sprague");

/** Starts `sprague serve --port 0`; resolves to {url, stop, log} once it listens. */
export function startServer() {
  const child = spawn(binary, ["serve", "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${log}`)), 30_000);
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      log += chunk;
      const match = log.match(/listening on (http:\/\/[^/\s]+\/)/);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          log: () => log,
          stop: () =>
            new Promise((done) => {
              child.removeAllListeners("exit");
              child.on("exit", (code, signal) => done({ code, signal }));
              child.kill("SIGINT");
            }),
        });
      }
    });
  });
}

/** A headless Chromium (Debian's /usr/bin/chromium) with a fresh profile; resolves to a context. */
export async function startBrowser(viewport = { width: 1280, height: 900 }) {
  const profile = mkdtempSync(path.join(tmpdir(), "sprague-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until the play view has answered: the human's turn again, or the game over. */
export async function settled(page) {
  await page.waitForFunction(() => {
    const status = document.getElementById("play-status");
    return status.dataset.result || status.textContent.endsWith("Your move.");
  });
}

/** Plays one game of the board shown by clicking cells: `pick` chooses among the empty ones. */
export async function playBoard(page, pick) {
  for (let turn = 0; turn < 64; turn++) {
    await settled(page);
    const result = await page.locator("#play-status").getAttribute("data-result");
    if (result) return result;
    const cells = await page.locator("#play-board .board button[data-move]").all();
    if (cells.length === 0) throw new Error("no empty cell and no result");
    const before = await page.locator("#play-board .board button.x, #play-board .board button.o").count();
    await cells[pick(cells.length, turn)].click();
    // Our piece and then the engine's (unless the game ended): the board has changed.
    await page.waitForFunction(
      (count) =>
        document.getElementById("play-status").dataset.result ||
        document.querySelectorAll("#play-board .board button.x, #play-board .board button.o").length >= count + 2,
      before,
    );
  }
  throw new Error("the game did not end");
}
