import { describe, expect, it } from "vitest";
import { cancelAnswerOf } from "./stripe-voucher-cancel.server";

describe("a voucher's PaymentIntent asked to be cancelled", () => {
  it("cancelled is cancelled; paid, or its money on the way, is left to the payment", () => {
    expect(cancelAnswerOf("canceled")).toBe("cancelada");
    expect(cancelAnswerOf("succeeded")).toBe("pagada");
    expect(cancelAnswerOf("processing")).toBe("pagada");
    expect(cancelAnswerOf("requires_capture")).toBe("pagada");
  });

  it("still waiting for its money says neither: the shop asks again", () => {
    expect(cancelAnswerOf("requires_action")).toBeNull();
    expect(cancelAnswerOf("requires_payment_method")).toBeNull();
  });
});
