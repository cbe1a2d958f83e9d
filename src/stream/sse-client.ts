/**
 * Reading a server-sent events stream (WHATWG HTML, "Interpreting an event stream"): lines split on
 * CR, LF or CRLF; `event`, `data`, `id` and `retry` fields; comment lines (heartbeats) ignored; a blank
 * line dispatches. Used by `catintel events watch` and the tests, which read /events/stream as a client would.
 */
export interface SseEvent {
  event: string;
  data: string;
  /** The last event id after this message (ids persist across messages that carry none, as EventSource's). */
  lastEventId: string;
}

export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private sawData = false;
  lastEventId = '';
  retryMs: number | undefined;

  /** Feeds decoded text; returns the messages it completed. */
  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // A lone CR at the end may be the first half of CRLF: wait for more.
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const done = this.line(line);
      if (done) out.push(done);
    }
    return out;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      if (!this.sawData) {
        this.event = '';
        return undefined;
      }
      const e = { event: this.event || 'message', data: this.data.join('\n'), lastEventId: this.lastEventId };
      this.event = '';
      this.data = [];
      this.sawData = false;
      return e;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') {
      this.data.push(value);
      this.sawData = true;
    } else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }
}

/** Reads a fetch() body as SSE messages until it ends or the signal aborts. */
export async function* readSse(body: ReadableStream<Uint8Array>, parser = new SseParser()): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}
