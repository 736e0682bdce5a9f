import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEndpoint } from '../extensions/events/webhookDelivery';
import type { JsonObject } from '../types';

/**
 * The receiving end of an Events webhook subscription (SEP-3415, Standard Webhooks profile) on this machine: an HTTP
 * listener on 127.0.0.1 at a port the kernel picks and an unguessable path, one per subscription. It accepts only a
 * POST to that path whose `webhook-signature` verifies (HMAC-SHA256 with the subscription's secret over
 * `webhook-id.webhook-timestamp.` and the raw body), whose timestamp is within five minutes, and whose body is a JSON
 * object of at most maxBodyBytes; a repeated `webhook-id` is acknowledged and not handed on again. The verification
 * challenge is answered here; every other verified body goes to `onBody` after the 200 is sent.
 */
export interface WebhookListenerOptions {
  secret: string;
  onBody: (body: JsonObject) => void;
  /** Bodies larger than this are refused with 413 (the SEP's delivery profile: 256 KiB). */
  maxBodyBytes?: number;
  /** A delivery whose webhook-timestamp is further than this from now is refused. */
  toleranceMs?: number;
  /** Deliveries accepted per second; the rest are answered 429 (the server retries them). */
  maxPerSecond?: number;
  now?: () => number;
}

export interface WebhookListener extends WebhookEndpoint {
  /** Refused requests by reason (bad signature, stale, too large…), for a feed's diagnostics. */
  readonly refused: Readonly<Record<string, number>>;
}

const DEFAULTS = { maxBodyBytes: 256 * 1024, toleranceMs: 5 * 60_000, maxPerSecond: 200 };
const DEDUPE_MEMORY = 1_000;

export function secretBytes(secret: string): Buffer {
  if (!secret.startsWith('whsec_')) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

/** `v1,<base64>` for `id.timestamp.body` (what a server sends; the tests sign with it too). */
export function webhookSignature(secret: string, id: string, timestamp: string, body: Buffer | string): string {
  const mac = createHmac('sha256', secretBytes(secret));
  mac.update(`${id}.${timestamp}.`, 'utf8');
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

function signatureMatches(header: string, expected: string): boolean {
  const want = Buffer.from(expected);
  // Several space-delimited signatures during a secret rotation: any one may verify.
  return header.split(' ').some((candidate) => {
    const got = Buffer.from(candidate);
    return got.length === want.length && timingSafeEqual(got, want);
  });
}

export async function openWebhookListener(options: WebhookListenerOptions): Promise<WebhookListener> {
  const { maxBodyBytes, toleranceMs, maxPerSecond } = { ...DEFAULTS, ...options };
  const now = options.now ?? Date.now;
  secretBytes(options.secret); // fails now on a malformed secret, not at the first delivery
  const path = `/events/${randomBytes(16).toString('hex')}`;
  const seen = new Set<string>();
  const refused: Record<string, number> = {};
  let windowStart = 0;
  let inWindow = 0;

  const answer = (res: http.ServerResponse, status: number, reason?: string, body = ''): void => {
    if (reason) refused[reason] = (refused[reason] ?? 0) + 1;
    res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
    res.end(body);
  };

  const server = http.createServer((req, res) => {
    if (req.url !== path) return answer(res, 404, 'unknown path');
    if (req.method !== 'POST') return answer(res, 405, 'not a POST');
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBodyBytes) {
      answer(res, 413, 'too large');
      req.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        answer(res, 413, 'too large');
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > maxBodyBytes) return;
      const id = req.headers['webhook-id'];
      const timestamp = req.headers['webhook-timestamp'];
      const signature = req.headers['webhook-signature'];
      if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string')
        return answer(res, 400, 'missing webhook headers');
      const raw = Buffer.concat(chunks);
      if (!signatureMatches(signature, webhookSignature(options.secret, id, timestamp, raw)))
        return answer(res, 401, 'bad signature');
      const sentAt = Number(timestamp) * 1000;
      if (!Number.isFinite(sentAt) || Math.abs(now() - sentAt) > toleranceMs) return answer(res, 400, 'stale');
      const t = now();
      if (t - windowStart >= 1_000) {
        windowStart = t;
        inWindow = 0;
      }
      if (++inWindow > maxPerSecond) return answer(res, 429, 'rate');
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return answer(res, 400, 'not JSON');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return answer(res, 400, 'not a JSON object');
      const record = body as JsonObject;
      if (record.type === 'verification') {
        const challenge = record.challenge;
        if (typeof challenge !== 'string' || challenge.length > 1_000) return answer(res, 400, 'bad challenge');
        return answer(res, 200, undefined, JSON.stringify({ challenge }));
      }
      if (seen.has(id)) return answer(res, 200); // a retry of what was already handed on
      seen.add(id);
      if (seen.size > DEDUPE_MEMORY) seen.delete(seen.values().next().value as string);
      answer(res, 200);
      options.onBody(record);
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    refused,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
