/**
 * Skills (issue 22) end to end in a real VS Code (code-server) driven from Chromium: a workspace runs the skills
 * fixture twice, honest ("skills") and with a tampered SKILL.md ("tampered"). Opening pdf-processing of "skills"
 * shows its verified SKILL.md in an editor; Install (inline action) asks a consent naming the server and listing the
 * files, with Not Now its default button, then the files appear under .github/skills/pdf-processing/; opening the tampered one shows a refusal and no
 * editor with its content. Screenshots: test-results/e2e/skills-*.png.
 *
 * Run: node --import tsx --test test/e2e/skills.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { VsCodeFixture } from './fixture';
import {
  answerDialog,
  clickUncovered,
  inlineAction,
  openViewContainer,
  pane,
  screenshot,
  visibleRow,
  waitFor,
  waitForNotification,
  waitUntil,
} from './harness';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SKILLS_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'skills', 'skillsServer.mjs');
const server = (...flags: string[]) => ({
  type: 'stdio',
  command: process.execPath,
  args: [SKILLS_SERVER, ...flags, '${workspaceFolder}'],
});

async function activeEditorText(page: Page): Promise<string> {
  const lines = page.locator('.editor-group-container.active .editor-instance .monaco-editor .view-lines').first();
  return ((await lines.textContent().catch(() => '')) ?? '').replace(/\u00a0/g, ' ');
}

/** Expands a server (its first start asks for consent) and its Skills section; returns the servers pane. */
async function openSkills(page: Page, name: string): Promise<Locator> {
  const servers = pane(page, 'Servers');
  await clickUncovered(page, await visibleRow(page, servers, name));
  await answerDialog(page, 'Allow and Start');
  // The server's resource and prompt lists arrive after it starts, and their arrival redraws its rows. A click on a row
  // as it is redrawn can select it without running its command (CI saw pdf-processing selected and no editor), so the
  // clicks below wait for the lists: the group rows show their counts once they are in.
  const templates = await visibleRow(page, servers, 'Resource Templates');
  await waitFor(page, "the server's lists", () =>
    templates.locator('.label-description', { hasText: /^\d+$/ }).waitFor({ state: 'visible', timeout: 60_000 }),
  );
  await clickUncovered(page, await visibleRow(page, servers, 'Skills'));
  await visibleRow(page, servers, 'pdf-processing');
  return servers;
}

test(
  'skills in real VS Code: open a verified skill, install it, refuse a tampered one',
  { timeout: 600_000 },
  async () => {
    let session: VsCodeFixture | undefined;
    try {
      session = await VsCodeFixture.open({
        name: 'skills',
        mcpJson: {
          kind: 'servers',
          comment: 'the skills fixture, honest and tampered, for skills.e2e.ts',
          servers: { skills: server(), tampered: server('--tamper=digest') },
        },
      });
      const { page } = session;
      await openViewContainer(page, 'MCP Workbench');

      // Open: the SKILL.md is read now, verified, and shown in an editor tab named after it.
      const servers = await openSkills(page, 'skills');
      await clickUncovered(page, await visibleRow(page, servers, 'pdf-processing'));
      await waitFor(page, 'the verified SKILL.md in an editor', () =>
        waitUntil('SKILL.md text', async () =>
          (await activeEditorText(page)).includes('Skill body.') ? true : undefined,
        ),
      );
      const tab = page.locator('.tabs-container .tab.active').first();
      assert.match((await tab.getAttribute('aria-label')) ?? '', /SKILL\.md/);
      await screenshot(page, 'skills-01-open');

      // Install: the consent names the server and lists the files; then they are in the workspace.
      await inlineAction(page, await visibleRow(page, servers, 'pdf-processing'), 'Install Skill into Workspace');
      // The server's files into the workspace: the consent's default (focused) button is Not Now, so a stray Enter
      // installs nothing.
      const focused = await waitUntil('the install consent, with a button of it focused', () =>
        page.evaluate(() => {
          const active = document.activeElement;
          return active?.closest('.monaco-dialog-box') ? (active.textContent ?? '') : undefined;
        }),
      );
      assert.equal(focused.trim(), 'Not Now');
      const consent = await answerDialog(page, 'Install');
      assert.match(consent, /"pdf-processing" from the server "skills"/);
      assert.match(consent, /\.github\/skills\/pdf-processing\/references\/FORMS\.md/);
      const installed = path.join(session.workspace, '.github', 'skills', 'pdf-processing');
      // The notice comes after the last file is written (files are written one by one: one of them being there says
      // nothing of the others; CI once saw FORMS.md before logo.png).
      await waitForNotification(page, /installed in \.github\/skills\/pdf-processing/);
      assert.ok(fs.existsSync(path.join(installed, 'references', 'FORMS.md')));
      assert.match(fs.readFileSync(path.join(installed, 'SKILL.md'), 'utf8'), /^---\nname: pdf-processing/);
      assert.ok(fs.existsSync(path.join(installed, 'assets', 'logo.png')));
      await screenshot(page, 'skills-02-installed');

      // Refusal: the tampered server's SKILL.md fails its digest; nothing of it is shown.
      await clickUncovered(page, await visibleRow(page, servers, 'skills')); // fold the first server
      await openSkills(page, 'tampered');
      const rows = servers.locator('.monaco-list-row').filter({ hasText: 'pdf-processing' });
      await clickUncovered(page, rows.last());
      const refusal = await waitForNotification(
        page,
        /Skill refused: tampered: refused skill:\/\/pdf-processing\/SKILL\.md/,
      );
      assert.match(refusal, /sha256 digest/);
      assert.doesNotMatch(await activeEditorText(page), /Evil body/);
      await screenshot(page, 'skills-03-refused');
    } finally {
      await session?.dispose();
    }
  },
);
