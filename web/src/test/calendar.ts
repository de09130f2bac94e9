// The tests on another day. With VITRINE_TEST_DATE set (an ISO time, e.g.
// VITRINE_TEST_DATE=2028-11-29T23:50:00Z npm test), Date reads as if this
// machine's clock had been set to that time when the test file started and
// ran on from there: what `make test` meets on a machine whose clock is
// months or years ahead. Unset (as `make test` runs), it changes nothing.
// Fake timers installed by a test start from the moved clock, as they would
// from a moved machine clock. See
// docs/decisions/0062-tests-calendar.md.

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const target = env.VITRINE_TEST_DATE;

if (target) {
  const Real = Date;
  const at = Real.parse(target);
  if (Number.isNaN(at)) throw new Error(`VITRINE_TEST_DATE is not a date: ${target}`);
  const offset = at - Real.now();
  const now = () => Real.now() + offset;
  globalThis.Date = new Proxy(Real, {
    construct(target, args: unknown[], newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
    },
    apply() {
      return new Real(now()).toString();
    },
    get(target, key, receiver) {
      return key === 'now' ? now : Reflect.get(target, key, receiver);
    },
  });
}
export {};
