import type * as vscode from 'vscode';

/**
 * What a page with a result area (media/results/results.js, in the result tab and in the tool form) is sent. A body
 * replaces the area: a result (`sequence` is echoed back as `rendered` once it is on screen) or a status (a call in
 * flight, cancelled or failed). Every body has a `key`; the page names the key of the body its HTML was built with when it announces
 * that it listens, so a page that was rebuilt with an older body is sent the latest one.
 */
export type ResultBodyMessage =
  { type: 'show'; key: string; html: string; sequence: number } | { type: 'status'; key: string; html: string };

type ResultPageMessage = ResultBodyMessage | { type: 'progress'; text: string };

/** Where the page is: loading (its script not yet listening, so a posted message could be lost) or listening. */
type PageState = { kind: 'loading' } | { kind: 'listening' };

/** How a body reached the page: posted to a page that listens, or held until the page says `ready`. */
export type ChannelDelivery = 'posted' | 'queued';

/**
 * The way to a result page. `postMessage` answers true even when the page's script has not attached its listener
 * yet (a webview just created, or being rebuilt): such a message is lost and the page never draws it. So nothing
 * is posted until the page announces `ready`; until then only the latest body is kept, and it is delivered then.
 */
export class ResultChannel {
  private page: PageState = { kind: 'loading' };
  private latest: ResultBodyMessage | undefined;

  /** `initial` is the body the page's HTML already carries, if any. */
  constructor(
    private readonly webview: vscode.Webview,
    initial?: ResultBodyMessage,
  ) {
    this.latest = initial;
  }

  /** Whether the page has said `ready` (and no post to it failed since). */
  get listening(): boolean {
    return this.page.kind === 'listening';
  }

  /** The body shown last (or about to be): what a rebuilt page must show. */
  get current(): ResultBodyMessage | undefined {
    return this.latest;
  }

  deliver(body: ResultBodyMessage): ChannelDelivery {
    this.latest = body;
    switch (this.page.kind) {
      case 'loading':
        return 'queued';
      case 'listening':
        this.post(body);
        return 'posted';
      default: {
        const exhaustive: never = this.page;
        return exhaustive;
      }
    }
  }

  /** A progress line for the call in flight; dropped while the page loads (its body says "Calling…" already). */
  progress(text: string): void {
    if (this.page.kind === 'listening' && this.latest?.type === 'status')
      void this.webview
        .postMessage({ type: 'progress', text } satisfies ResultPageMessage)
        .then(undefined, () => undefined);
  }

  /**
   * The page (re)loaded and listens; `showing` is the key of the body its HTML carries. A webview that VS Code
   * rebuilt from its HTML (restored, moved) says so again without the extension having been told: whatever was
   * posted meanwhile was lost, and the latest body is sent again unless the HTML already carries it.
   */
  ready(showing: unknown): void {
    this.page = { kind: 'listening' };
    if (this.latest && this.latest.key !== showing) this.post(this.latest);
  }

  private post(body: ResultBodyMessage): void {
    void this.webview.postMessage(body).then(
      (delivered) => {
        // Not delivered (the webview is going away or being rebuilt): the next `ready` brings the latest body.
        if (!delivered) this.page = { kind: 'loading' };
      },
      () => {
        this.page = { kind: 'loading' };
      },
    );
  }
}
