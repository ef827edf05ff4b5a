import { describe, expect, it, vi } from "vitest";
import { log } from "~/config/log.server";
import { type PaymentProvider, RefundNotAsked } from "./payment-port";
import { askForRefund } from "./refund-call.server";
import { isNoAnswer } from "./refund-timing";

/** A provider whose refund call fails with `error`. */
const failingWith = (error: unknown) =>
  ({
    name: "stripe",
    refund: async () => {
      throw error;
    },
    refundState: async () => "fallido",
  }) as unknown as PaymentProvider;

const request = {
  orderId: "OL-ABCD1234",
  sessionId: "cs_1",
  paymentId: "pi_1",
  amountCents: 1_000,
  currency: "mxn",
};

describe("a refund call that failed", () => {
  it("is marked 'no answer' when the provider may have made it (a timeout, its own 5xx), so nobody refunds it by hand meanwhile", async () => {
    vi.spyOn(log, "error").mockImplementation(() => {});
    for (const error of [
      new Error("ETIMEDOUT"),
      Object.assign(new Error("api_error"), { statusCode: 500 }),
    ]) {
      const answer = await askForRefund(failingWith(error), null, request);
      expect(answer.kind).toBe("sin_respuesta");
      expect(answer.kind === "sin_respuesta" && isNoAnswer(answer.error)).toBe(true);
    }
    vi.restoreAllMocks();
  });

  it("is not, when the provider read it and did nothing (its key refused, too many requests): asked again, and the owner may refund it herself", async () => {
    vi.spyOn(log, "error").mockImplementation(() => {});
    const answer = await askForRefund(
      failingWith(new RefundNotAsked("Stripe no atendió el reembolso: 401")),
      null,
      request,
    );
    expect(answer.kind).toBe("sin_respuesta");
    expect(answer.kind === "sin_respuesta" && isNoAnswer(answer.error)).toBe(false);
    vi.restoreAllMocks();
  });
});
