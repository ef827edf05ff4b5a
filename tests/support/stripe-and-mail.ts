import { afterAll, afterEach, beforeAll } from "vitest";
import { type FakeStripe, startFakeStripe } from "./fake-stripe";
import { startSmtp } from "./smtp";

type Smtp = Awaited<ReturnType<typeof startSmtp>>;

/**
 * The local stand-in for Stripe and a real SMTP server for a data-layer suite: started once before
 * its tests, stopped after them, the stand-in's outage and refund answer put back after each test.
 * Their parts are read once the suite has started (`stands.fake`, `stands.smtp`).
 */
export function stripeAndMailStands(): { fake: FakeStripe; smtp: Smtp } {
  const stands = {} as { fake: FakeStripe; smtp: Smtp };
  beforeAll(async () => {
    stands.fake = await startFakeStripe();
    stands.smtp = await startSmtp();
  });
  afterAll(async () => {
    await stands.fake.close();
    await stands.smtp.close();
  });
  afterEach(() => {
    stands.fake.outage = null;
    stands.fake.failingIntents.clear();
    stands.fake.refundStatus = "succeeded";
  });
  return stands;
}
