// End to end: the page in a real headless Chromium plays full games of tic-tac-toe by clicking;
// the engine never loses. A screenshot of the last game is saved to e2e/artifacts/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { root, startServer, startBrowser, playBoard, settled } from "./harness.mjs";

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  const exit = await server?.stop();
  assert.equal(exit?.code, 0, `the server did not stop cleanly: ${JSON.stringify(exit)}\n${server?.log()}`);
  assert.match(server.log(), /GET \/api\/play 200/);
});

test("the engine never loses a game of tic-tac-toe played by clicking", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${server.url}#play`);
  await page.waitForSelector("#play-board .board button");
  assert.equal(await page.locator("#play-board .board button").count(), 9);

  // A few human strategies: first empty cell, last empty cell, and a seeded random one.
  let seed = 12345;
  const random = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  // The last game lets the engine open (it plays x, the test o).
  const strategies = [[(n) => 0, false], [(n) => n - 1, false], [random, false], [random, true]];
  const results = [];
  for (const [i, [pick, engineFirst]] of strategies.entries()) {
    if (i > 0) {
      await page.click("#play-new");
      await page.waitForFunction(() => document.querySelectorAll("#play-board .board button.x").length === 0);
    }
    if (engineFirst) {
      await page.click("#play-engine");
      await page.waitForFunction(() => document.querySelectorAll("#play-board .board button.x").length === 1);
    }
    const result = await playBoard(page, pick);
    results.push(result);
    assert.notEqual(result, "you", `the engine lost game ${i + 1}`);
    const pieces = await page.locator("#play-board .board button.x, #play-board .board button.o").count();
    assert.ok(pieces >= 5, `game ${i + 1} ended after ${pieces} moves`);
  }
  // The visual value history of the last game (the engine opened): from the first player's
  // side, a tie at remoteness 9 at the start (a yellow pair, mirrored about the draw column),
  // one row a position.
  await page.waitForFunction(() => document.querySelector("#play-chart svg")?.querySelectorAll("circle").length > 0);
  const chart = await page.locator("#play-chart").evaluate((box) => ({
    points: box.dataset.points,
    rows: new Set([...box.querySelectorAll("circle")].map((c) => c.dataset.row)).size,
    start: [...box.querySelectorAll('circle[data-row="0"]')].map((c) => [c.dataset.value, c.dataset.level, Number(c.getAttribute("cx"))]),
    width: Number(box.querySelector("svg").getAttribute("width")),
  }));
  assert.match(chart.points, /^t9,/);
  assert.equal(chart.rows, chart.points.split(",").length);
  assert.equal(chart.start.length, 2);
  assert.deepEqual(chart.start.map(([v, l]) => v + l), ["t9", "t9"]);
  assert.ok(Math.abs(chart.start[0][2] + chart.start[1][2] - chart.width) < 1, `not mirrored: ${JSON.stringify(chart)}`);
  assert.match(await page.locator("#play-facts").textContent(), /^First player: the engine\./);
  mkdirSync(path.join(root, "e2e", "artifacts"), { recursive: true });
  await page.screenshot({ path: path.join(root, "e2e", "artifacts", "tic-tac-toe.png"), fullPage: true });
  assert.deepEqual(errors, []);
  console.log(`results: ${results.join(", ")}`);
});

test("hint colours the cells and undo takes a move back", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}#play`);
  await page.waitForSelector("#play-board .board button[data-move]");
  await page.click("#play-hint");
  // On the empty board every move ties.
  assert.equal(await page.locator("#play-board .board button.value-draw").count(), 9);
  const colour = await page.locator('#play-board .board button[data-cell="a1"]').evaluate((cell) => getComputedStyle(cell).backgroundColor);
  assert.match(colour, /212, 160, 23/, "a tie is shown yellow");
  await page.click('#play-board .board button[data-cell="b2"]');
  await page.waitForFunction(() => document.querySelectorAll("#play-board .board button.o").length === 1);
  await page.click("#play-undo");
  await page.waitForFunction(() => document.querySelectorAll("#play-board .board button.x, #play-board .board button.o").length === 0);
});

test("explore colours the moves and sequences plots a certified period", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}#explore`);
  await page.waitForSelector("#explore-moves tbody tr.value-win");
  const summary = await page.locator("#explore-summary").textContent();
  assert.match(summary, /nim value/);
  // A board: x can win at once in c3, the cell is green; clicking it explores the won board.
  await page.fill("#explore-game", "mnk:3,3,3");
  await page.fill("#explore-position", "xx.oo....");
  await page.click("#explore-form button[type=submit]");
  await page.waitForSelector('#explore-visual .board button[data-cell="c3"].value-win');
  await page.click('#explore-visual .board button[data-cell="c3"]');
  await page.waitForFunction(() => document.getElementById("explore-position").value === "xxxoo....");
  await page.waitForSelector("#explore-summary .badge.P");
  // A huge heap has too many moves to rate, but the value report still answers.
  await page.fill("#explore-game", "nim");
  await page.fill("#explore-position", "1000000 5");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-visual").textContent.includes("Only the winning moves"));
  // A partizan game: its canonical form, thermograph and each player's winning moves; clicking
  // Left's move explores the board after it (a vertical strip of two cells, worth 1).
  await page.fill("#explore-game", "domineering");
  await page.fill("#explore-position", "..|..");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-canonical")?.textContent === "±1");
  await page.waitForFunction(() => document.querySelector("#explore-visual img.thermograph")?.naturalWidth > 0);
  await page.click("#explore-moves tbody tr:first-child");
  await page.waitForFunction(() => document.getElementById("explore-position").value === "#.|#.");
  await page.waitForFunction(() => document.getElementById("explore-canonical")?.textContent === "1");
  await page.goto(`${server.url}#sequences`);
  await page.waitForFunction(() => document.getElementById("sequences-plot").naturalWidth > 0);
  assert.match(await page.locator("#sequences-summary").textContent(), /period 12 from preperiod 71/);
  const csv = await page.locator("#sequences-csv").getAttribute("href");
  assert.match(csv, /format=csv/);
});

test("exploring a misère sum of heaps shows the game's misère quotient", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${server.url}#explore`);
  await page.waitForSelector("#explore-moves tbody tr");
  await page.fill("#explore-game", "0.75");
  await page.fill("#explore-position", "5 7");
  await page.check("#explore-misere");
  await page.click("#explore-form button[type=submit]");
  await page.waitForSelector("#explore-quotient table.quotient-table");
  const text = await page.locator("#explore-quotient").textContent();
  assert.match(text, /order 8, presentation <a, b, c \| a\^2 = 1, b\^3 = b, bc = ab, c\^2 = b\^2>/);
  assert.match(text, /P-portion \{a, b\^2\}/);
  assert.match(text, /5 → c, 7 → c; together b\^2, in the P-portion/);
  // 8 × 8 products, those in the P-portion marked
  assert.equal(await page.locator("#explore-quotient td").count(), 64);
  assert.ok((await page.locator("#explore-quotient td.p-element").count()) > 0);
  // normal play shows no quotient
  await page.uncheck("#explore-misere");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-quotient").hidden);
  assert.deepEqual(errors, []);
});

test("desktop and phone: every view fits without sideways scrolling; screenshots saved", async () => {
  const artifacts = path.join(root, "e2e", "artifacts");
  mkdirSync(artifacts, { recursive: true });
  const errors = [];
  for (const [size, viewport] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]]) {
    // A fresh page a size: going to another view of the same page only changes its hash.
    const page = await browser.context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.setViewportSize(viewport);
    const fits = async (view) => {
      const { scroll, width } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        width: window.innerWidth,
      }));
      assert.ok(scroll <= width, `${view} is ${scroll} px wide in a ${width} px window`);
    };
    // Explore with its Why panel (the page opens on kayles 10 + nim 3).
    await page.goto(`${server.url}#explore`);
    await page.waitForSelector("#explore-why:not([hidden])");
    assert.match(await page.locator("#explore-why-text").textContent(), /XOR = 01 = 1/);
    await fits("explore");
    await page.screenshot({ path: path.join(artifacts, `explore-why-${size}.png`), fullPage: true });
    // Play: tic-tac-toe, x in the centre, the engine's reply, x in a corner; the chart drawn for
    // the width it is shown at.
    await page.goto(`${server.url}#play`);
    await page.waitForSelector('#play-board .board button[data-cell="b2"][data-move]');
    await page.click('#play-board .board button[data-cell="b2"]');
    await settled(page);
    await page.locator("#play-board .board button[data-move]").first().click();
    await settled(page);
    await page.waitForFunction(() => document.getElementById("play-chart").dataset.points?.split(",").length === 5);
    const chart = await page.locator("#play-chart").evaluate((box) => ({
      drawn: Number(box.querySelector("svg").getAttribute("width")),
      shown: box.clientWidth,
    }));
    assert.ok(Math.abs(chart.drawn - chart.shown) <= 1, `chart drawn ${chart.drawn} px wide, shown at ${chart.shown}`);
    await fits("play");
    await page.screenshot({ path: path.join(artifacts, `play-chart-${size}.png`), fullPage: true });
    // Sequences: the plot is drawn at the width it is shown at, so it is not shrunk.
    await page.goto(`${server.url}#sequences`);
    await page.waitForFunction(() => document.getElementById("sequences-plot").naturalWidth > 0);
    const plot = await page.locator("#sequences-plot").evaluate((img) => ({
      asked: Number(new URL(img.src).searchParams.get("width")),
      natural: img.naturalWidth,
      shown: img.getBoundingClientRect().width,
    }));
    assert.ok(plot.asked >= 320 && Math.abs(plot.natural - plot.shown) <= 1, `plot ${JSON.stringify(plot)}`);
    assert.equal(plot.natural, plot.asked);
    // The title and the summary are whole: nothing of them is cut off at the right.
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll("#sequences-summary, header h1, nav a")]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth)
        .map((e) => e.id || e.textContent),
    );
    assert.deepEqual(clipped, []);
    await fits("sequences");
    await page.screenshot({ path: path.join(artifacts, `sequences-${size}.png`), fullPage: true });
  }
  assert.deepEqual(errors, []);
});

test("explore explains why: a sum's XOR in binary, a closed form, a winning line", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${server.url}#explore`);
  // The page opens on kayles 10 + nim 3: nim values 2 and 3, XOR 1, and what to do with each part.
  await page.waitForSelector("#explore-why:not([hidden])");
  let why = await page.locator("#explore-why-text").textContent();
  assert.match(why, /kayles 10 +2 = 10\n/);
  assert.match(why, /nim 3 +3 = 11\n/);
  assert.match(why, /XOR = 01 = 1\n/);
  assert.match(why, /part 2 \(nim 3\): 3 XOR 1 = 2 < 3: move it to a position of nim value 2/);
  // Wythoff: the closed form with this position's numbers.
  await page.fill("#explore-game", "wythoff");
  await page.fill("#explore-position", "4 5");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-why-text").textContent.includes("wythoff 4 5"));
  why = await page.locator("#explore-why-text").textContent();
  assert.match(why, /k = 5 − 4 = 1/);
  assert.match(why, /the P-position with smaller heap 4 is \(4, 7\)/);
  // Fibonacci Nim: the Zeckendorf sum and the rule, with this position's numbers.
  await page.fill("#explore-game", "fib");
  await page.fill("#explore-position", "20");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-why-text").textContent.includes("fib 20"));
  assert.match(await page.locator("#explore-why-text").textContent(), /20 = 13 \+ 5 \+ 2; .*2 ≤ 19: taking 2 wins/);
  // A period: the heap reduced by whole periods to a value the table holds.
  await page.fill("#explore-game", "kayles");
  await page.fill("#explore-position", "100");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-why-text").textContent.includes("kayles 100:"));
  assert.match(await page.locator("#explore-why-text").textContent(), /G\(n \+ 12\) = G\(n\) for every n ≥ 71.*100 = 76 \+ 2·12, so G\(100\) = G\(76\) = 1/);
  // A strong-solved board: the winning line, move by move.
  await page.fill("#explore-game", "mnk:3,3,3");
  await page.fill("#explore-position", "xx.oo....");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-why-text").textContent.includes("perfect play"));
  why = await page.locator("#explore-why-text").textContent();
  assert.match(why, /a win for the player to move in 1 moves/);
  assert.match(why, /1\. c3 +\(win for the player making it; the game ends\)/);
  // A longer line: the remoteness left after each move.
  await page.fill("#explore-position", "x...o....");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-why-text").textContent.includes("a tie in 7 moves"));
  why = await page.locator("#explore-why-text").textContent();
  assert.match(why, /\n +1\. [a-c][1-3] +\(tie for the player making it; remoteness 6 after it\)\n/);
  assert.match(why, /\n +6\. [a-c][1-3] +\(tie for the player making it; remoteness 1 after it\)\n/);
  assert.match(why, /\n +7\. [a-c][1-3] +\(tie for the player making it; the game ends\)/);
  assert.deepEqual(errors, []);
});

test("a new game clears the last game's status", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}#play`);
  await page.waitForSelector("#play-board .board button[data-move]");
  // The engine opens: the status names its move; a new game forgets it.
  await page.click("#play-engine");
  await page.waitForFunction(() => document.getElementById("play-status").textContent.startsWith("The engine played"));
  await page.click("#play-new");
  await page.waitForFunction(() => document.getElementById("play-status").textContent === "Your move.");
  assert.equal(await page.locator("#play-board .board button.x").count(), 0);
  // A game won at once: nim 1, take the heap; then a new game is not over.
  await page.selectOption("#play-preset", "custom");
  await page.fill("#play-game", "nim");
  await page.fill("#play-position", "1");
  await page.click("#play-new");
  await page.waitForSelector('#play-moves button[data-move="1 -> 0"]');
  await page.click('#play-moves button[data-move="1 -> 0"]');
  await page.waitForFunction(() => document.getElementById("play-status").textContent === "Game over: you win!");
  assert.equal(await page.locator("#play-status").getAttribute("data-result"), "you");
  await page.click("#play-new");
  await page.waitForFunction(() => document.getElementById("play-status").textContent === "Your move.");
  assert.equal(await page.locator("#play-status").getAttribute("data-result"), "");
});

test("a misspelt game name gets 'did you mean' and a button that fixes it", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}#explore`);
  await page.waitForSelector("#explore-moves tbody tr");
  await page.fill("#explore-game", "kaylse");
  await page.fill("#explore-position", "7 + nmi 3");
  await page.click("#explore-form button[type=submit]");
  await page.waitForSelector("#explore-error:not([hidden]) button.did-you-mean");
  let text = await page.locator("#explore-error").textContent();
  assert.match(text, /unknown game 'kaylse'; did you mean 'kayles'\?/);
  assert.doesNotMatch(text, /sprague catalog/);
  assert.equal(await page.locator("#explore-error button.did-you-mean").textContent(), "Use kayles");
  // The button puts the catalog's name in, and the next misspelling is caught in turn.
  await page.click("#explore-error button.did-you-mean");
  await page.waitForFunction(() => document.getElementById("explore-error").textContent.includes("did you mean 'nim'?"));
  assert.equal(await page.inputValue("#explore-game"), "kayles");
  await page.click("#explore-error button.did-you-mean");
  await page.waitForFunction(() => document.getElementById("explore-error").hidden);
  assert.equal(await page.inputValue("#explore-position"), "7 + nim 3");
  await page.waitForFunction(() => document.getElementById("explore-summary").textContent.includes("nim value"));
  // A forgotten '+' between two games says so.
  await page.fill("#explore-position", "7 nim 3");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-error").textContent.includes("did you forget a '+' before 'nim'?"));
  assert.equal(await page.locator("#explore-error button").count(), 0);
});

test("the value history keeps the first player's side, with remoteness for heap games", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${server.url}#play`);
  await page.waitForSelector("#play-board .board button[data-move]");
  await page.selectOption("#play-preset", "nim|3 4 5");
  await page.waitForSelector('#play-moves button[data-move="3 -> 1"]');
  // Nim 3 4 5: the first player (you) wins in 11; take heap 1 to 1, the winning move.
  await page.waitForFunction(() => document.getElementById("play-chart").dataset.points === "w11");
  await page.click('#play-moves button[data-move="3 -> 1"]');
  await page.waitForFunction(() => document.getElementById("play-chart").dataset.points?.split(",").length === 3);
  const chart = await page.locator("#play-chart").evaluate((box) => ({
    points: box.dataset.points.split(","),
    circles: [...box.querySelectorAll("circle")].map((c) => ({ value: c.dataset.value, level: c.dataset.level, x: Number(c.getAttribute("cx")) })),
    lines: [...box.querySelectorAll("line.move-line")].map((l) => l.getAttribute("stroke")),
    labels: [...box.querySelectorAll("text.move")].map((t) => t.querySelector("title").textContent),
    width: Number(box.querySelector("svg").getAttribute("width")),
  }));
  // Every point is the first player's win with its remoteness, so all sit on the left, each
  // nearer the edge than the one before (remoteness 11, then 10, then fewer).
  assert.equal(chart.points[0], "w11");
  assert.equal(chart.points[1], "w10");
  assert.match(chart.points[2], /^w\d+$/);
  assert.ok(chart.circles.every((c) => c.value === "w" && c.x < chart.width / 2), JSON.stringify(chart));
  assert.ok(chart.circles[0].x > chart.circles[1].x && chart.circles[1].x > chart.circles[2].x, JSON.stringify(chart.circles));
  // Your move won (green); the engine's reply, into a position you win, lost for it (dark red).
  assert.deepEqual(chart.lines, ["#1e8e3e", "#8b1a1a"]);
  assert.equal(chart.labels[0], "start");
  assert.equal(chart.labels[1], "1. heap 1: 3 → 1");
  assert.match(chart.labels[2], /^2\. heap \d: /);
  assert.match(await page.locator("#play-facts").textContent(), /^First player: you\. With perfect play the first player wins \(remoteness \d+\)\.$/);
  assert.equal(await page.locator("#play-chart-note").textContent(), "");
  // A scored game: the margin, for the first player; its remoteness is not known: hollow points.
  await page.selectOption("#play-preset", "custom");
  await page.fill("#play-game", "ends:1");
  await page.fill("#play-position", "3 9 1 2");
  await page.click("#play-new");
  await page.waitForFunction(() => document.getElementById("play-chart").dataset.points === "w");
  assert.match(await page.locator("#play-facts").textContent(), /Score: the first player wins by 7\./);
  assert.match(await page.locator("#play-chart-note").textContent(), /remoteness of some positions here is not known/);
  assert.equal(await page.locator('#play-chart circle[fill="#fff"]').count(), 1);
  assert.deepEqual(errors, []);
});

test("a loopy game's draw: blue, in the middle column, with its draw level", async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // cards:2,10 with hands 1,2 and 5,5, the last card played 2: endless play (a draw of level 0,
  // two moves from its fringe).
  await page.goto(`${server.url}#explore`);
  await page.waitForSelector("#explore-moves tbody tr");
  await page.fill("#explore-game", "cards:2,10");
  await page.fill("#explore-position", "1,2 5,5 2");
  await page.click("#explore-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("explore-summary").textContent.includes("draw level"));
  assert.match(await page.locator("#explore-summary").textContent(), /draw level 0/);
  assert.ok((await page.locator("#explore-moves tbody tr.value-loop").count()) > 0, "no draw move coloured as a draw");
  const blue = await page.locator("#explore-moves tbody tr.value-loop").first().evaluate((row) => getComputedStyle(row).backgroundColor);
  assert.match(blue, /59, 125, 216/);
  await page.goto(`${server.url}#play`);
  await page.waitForSelector("#play-board .board button[data-move]");
  await page.selectOption("#play-preset", "custom");
  await page.fill("#play-game", "cards:2,10");
  await page.fill("#play-position", "1,2 5,5 2");
  await page.click("#play-new");
  await page.waitForFunction(() => document.getElementById("play-chart").dataset.points === "d0");
  assert.match(await page.locator("#play-facts").textContent(), /A draw: neither player can force a win \(draw level 0\)\./);
  const point = await page.locator("#play-chart").evaluate((box) => {
    const c = box.querySelector("circle");
    return { value: c.dataset.value, x: Number(c.getAttribute("cx")), width: Number(box.querySelector("svg").getAttribute("width")), fill: c.getAttribute("fill") };
  });
  assert.equal(point.value, "d");
  assert.equal(point.x, point.width / 2);
  assert.equal(point.fill, "#3b7dd8");
  assert.match(await page.locator("#play-chart svg").textContent(), /level 0/);
  assert.deepEqual(errors, []);
});
