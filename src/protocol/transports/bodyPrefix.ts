// Apart from httpShared.ts so that the sign-in recorder (auth/signInSteps.ts), which a window loads at start, reads
// bodies the same way without loading the transports.

/** Reads at most about `maxChars` of a body, then drops the rest: error bodies can be arbitrarily large. */
export async function readBodyPrefix(response: Response, maxChars: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < maxChars) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A broken error body still leaves the status to report.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return text.slice(0, maxChars);
}
