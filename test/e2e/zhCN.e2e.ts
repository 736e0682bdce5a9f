/**
 * The newcomer's first run (firstRun.e2e.ts) in Simplified Chinese, in the real VS Code (code-server 4.100.3) from
 * Chromium (issue 23). code-server has no zh-cn language pack offline, so the test packages a minimal one from
 * test/fixtures/zh-cn-language-pack (its `vscode` translations are empty: VS Code's own strings stay English),
 * installs it next to the product, registers it in languagepacks.json (languagePack.ts says why) and starts with
 * `--locale zh-cn`. Then, read as text in Chinese: the Servers view (服务器) and its hint, the start consent and its
 * field names (程序, 参数), the row state (运行中), the form's button (调用工具) and the result heading (结果).
 * Screenshots: test-results/e2e/zhCN-*.png (without a CJK font Chromium draws boxes; the assertions read text).
 *
 * Run: node --import tsx --test test/e2e/zhCN.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VsCodeFixture, everythingStdio, productVsix } from './fixture';
import {
  EVERYTHING_SERVER_JS,
  REPO_ROOT,
  answerDialog,
  inlineAction,
  openViewContainer,
  pane,
  screenshot,
  visibleRow,
  waitFor,
  waitUntil,
  webviewFrame,
  clickUncovered,
} from './harness';
import { packageLanguagePack, registerLanguagePacks } from './languagePack';

const SERVER = 'everything';
const SUM = 'The sum of 2 and 3 is 5.';
/** l10n/bundle.l10n.zh-cn.json's entries for the strings firstRun.e2e.ts reads in English. */
const ZH = {
  serversView: '服务器',
  hint: '选中服务器并按 Enter，或点击旁边的 ▷，即可启动。',
  allowAndStart: '允许并启动',
  program: '程序',
  args: '参数',
  running: '运行中',
  callToolAction: '调用工具',
  callToolButton: '调用工具',
  result: '结果',
} as const;

test(
  'first run in real VS Code in zh-CN: 服务器 hint → consent fields → 运行中 → 调用工具 → 结果',
  { timeout: 600_000 },
  async () => {
    const languagePack = await packageLanguagePack(path.join(REPO_ROOT, 'test', 'fixtures', 'zh-cn-language-pack'));
    let session: VsCodeFixture | undefined;
    try {
      session = await VsCodeFixture.prepare({
        name: 'zhCN',
        extensions: [await productVsix(), languagePack],
        mcpJson: {
          kind: 'servers',
          comment: 'server-everything over stdio, for zhCN.e2e.ts',
          servers: { [SERVER]: everythingStdio() },
        },
      });
      assert.deepEqual(
        registerLanguagePacks(session.extensionsDir, session.userDataDir),
        ['zh-cn'],
        'the fixture pack contributes zh-cn',
      );
      const page = await session.start({ locale: 'zh-cn' });
      const shot = (step: string) => screenshot(page, `zhCN-${step}`);
      // The language the workbench resolved (set by the messages script code-server generates from the pack): without a
      // registered pack code-server serves English whatever --locale says.
      const resolved = await page.evaluate(
        () => (globalThis as { _VSCODE_NLS_LANGUAGE?: string })._VSCODE_NLS_LANGUAGE,
      );
      assert.equal(
        resolved,
        'zh-cn',
        'the workbench resolved zh-cn (is the language pack registered in languagepacks.json?)',
      );

      await openViewContainer(page, 'MCP Workbench');
      const servers = pane(page, ZH.serversView);
      await waitFor(page, 'the Servers view (服务器) to say how to start a server', () =>
        servers.getByText(ZH.hint).first().waitFor({ state: 'visible', timeout: 60_000 }),
      );
      const serverRow = await visibleRow(page, servers, SERVER);
      await page.mouse.move(0, 0);
      await shot('01-hint');

      // Selecting the row starts it (as the hint says); the consent is laid out as fields with Chinese names.
      await clickUncovered(page, serverRow);
      const consent = await answerDialog(page, ZH.allowAndStart);
      assert.ok(
        consent.includes(`${ZH.program}: ${process.execPath}`),
        `the consent names the program (程序): ${consent}`,
      );
      assert.ok(
        consent.includes(`${ZH.args}: ${EVERYTHING_SERVER_JS} stdio`),
        `the consent lists the arguments (参数): ${consent}`,
      );
      assert.ok(!consent.includes('\\u000A'), `the consent shows an escaped line break: ${consent}`);
      const getSum = await visibleRow(page, servers, 'get-sum');
      // The hint goes once a server runs, moving the rows up a line: wait for that final layout before pointing at one.
      await waitUntil('the hint to go once a server started', async () =>
        (await servers.getByText(ZH.hint).count()) === 0 ? true : undefined,
      );
      // VS Code redraws the server row's description on its own schedule: its tool rows can be on screen while the row
      // still shows 正在启动 (CI saw it once), so the row is read until it says 运行中; a row stuck elsewhere fails.
      let state = '';
      await waitUntil('the server row to say 运行中 · stdio', async () => {
        state = (await serverRow.locator('.label-description').first().textContent()) ?? '';
        return state.startsWith(`${ZH.running} · stdio`) ? true : undefined;
      }).catch(() => undefined);
      assert.ok(state.startsWith(`${ZH.running} · stdio`), `the row says 运行中: ${state}`);
      await shot('02-running');

      await inlineAction(page, getSum, ZH.callToolAction);
      const form = await webviewFrame(page, 'the Call Tool form (调用工具) for get-sum', 'form input');
      await form.getByLabel(/^a\b/).fill('2');
      await form.getByLabel(/^b\b/).fill('3');
      await form.getByRole('button', { name: ZH.callToolButton, exact: true }).click();
      const result = await webviewFrame(page, 'the result under the form', `text=${SUM}`);
      assert.ok(
        await result.getByRole('heading', { name: ZH.result, exact: true }).first().isVisible(),
        'the result heading reads 结果',
      );
      assert.ok(await result.getByText(SUM).first().isVisible(), 'the sum is on screen');
      await page.mouse.move(0, 0);
      await shot('03-result');
    } finally {
      await session?.dispose();
      fs.rmSync(path.dirname(languagePack), { recursive: true, force: true });
    }
  },
);
