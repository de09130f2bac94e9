// Stand-ins for the few host APIs React's server renderer touches, for QuickJS
// (ES2023 only: no TextEncoder, MessageChannel, timers or console guaranteed).
// Imported first by entry-server.tsx; each is defined only when missing.
/* eslint-disable @typescript-eslint/no-explicit-any */
const g = globalThis as any;

if (typeof g.TextEncoder === 'undefined') {
  class TextEncoderShim {
    readonly encoding = 'utf-8';
    encode(input = ''): Uint8Array {
      const s = String(input);
      const out: number[] = [];
      for (let i = 0; i < s.length; i++) {
        let c = s.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
            i++;
          } else c = 0xfffd;
        } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
        if (c < 0x80) out.push(c);
        else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
      return new Uint8Array(out);
    }
    encodeInto(input: string, dest: Uint8Array) {
      const bytes = this.encode(input);
      const n = Math.min(bytes.length, dest.length);
      dest.set(bytes.subarray(0, n));
      return { read: input.length, written: n };
    }
  }
  g.TextEncoder = TextEncoderShim;
}

if (typeof g.queueMicrotask === 'undefined') {
  g.queueMicrotask = (fn: () => void) => {
    Promise.resolve().then(fn);
  };
}

if (typeof g.setTimeout === 'undefined') {
  // renderToString is synchronous; timers only matter for work we never wait on.
  let nextId = 1;
  const cancelled = new Set<number>();
  g.setTimeout = (fn: (...a: unknown[]) => void, _ms?: number, ...args: unknown[]) => {
    const id = nextId++;
    Promise.resolve().then(() => {
      if (!cancelled.delete(id)) fn(...args);
    });
    return id;
  };
  g.clearTimeout = (id: number) => {
    cancelled.add(id);
  };
}

if (typeof g.MessageChannel === 'undefined') {
  class Port {
    onmessage: ((ev: { data: unknown }) => void) | null = null;
    other: Port | null = null;
    postMessage(data: unknown) {
      const target = this.other;
      if (target && target.onmessage) target.onmessage({ data });
    }
    start() {}
    close() {}
  }
  class MessageChannelShim {
    port1 = new Port();
    port2 = new Port();
    constructor() {
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  }
  g.MessageChannel = MessageChannelShim;
}

if (typeof g.console === 'undefined') {
  const noop = () => {};
  g.console = { log: noop, info: noop, warn: noop, error: noop, debug: noop };
}

export {};
