// One Idempotency-Key per checkout attempt: made when "Place order" is first
// pressed, sent again on every retry of that attempt (a double click, a
// network failure, a 5xx, a 409 "in progress"), and dropped once the server
// has given a definitive answer, so the next press is a new attempt.

/** A random UUID v4 (crypto.randomUUID where available, else getRandomValues). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export class Attempt {
  private key: string | null = null;
  constructor(private make: () => string = newIdempotencyKey) {}
  /** The key of the running attempt (a new one if there is none). */
  current(): string {
    if (!this.key) this.key = this.make();
    return this.key;
  }
  /** The server answered for good: the next press is a new attempt. */
  settle(): void {
    this.key = null;
  }
}

/** Whether an HTTP answer ends the attempt (else the same key is sent again on retry). */
export function isDefinitive(status: number): boolean {
  if (status >= 500) return false;
  if (status === 409 || status === 429 || status === 408) return false;
  return true;
}
