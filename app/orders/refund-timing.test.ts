import { describe, expect, it } from "vitest";
import { REFUND_IN_PROGRESS } from "./order";
import {
  ASKING_MS,
  byHandOnly,
  handRefundCheck,
  isByHandReason,
  isNoAnswer,
  noAnswerError,
} from "./refund-timing";

describe("when the owner may record a refund as made by hand", () => {
  const now = new Date("2026-11-27T12:00:00Z");
  const later = (ms: number) => new Date(now.getTime() + ms);

  it("not while the provider has one under way: it may still make it", () => {
    expect(handRefundCheck({ lastError: REFUND_IN_PROGRESS, nextAttemptAt: later(3_600_000) }, now)).toEqual({
      ok: false,
      reason: "en_curso",
    });
  });

  it("not while it is being asked for, or is due to be within the asking time", () => {
    for (const nextAttemptAt of [null, now, later(ASKING_MS)])
      expect(handRefundCheck({ lastError: "sin conexión", nextAttemptAt }, now)).toEqual({
        ok: false,
        reason: "se_pide_ahora",
      });
  });

  it("not after a call that got no answer, however far off the next ask: the provider may have made it", () => {
    const lastError = noAnswerError("Stripe: tiempo de espera agotado");
    expect(isNoAnswer(lastError)).toBe(true);
    expect(isNoAnswer("Stripe no hizo el reembolso: card_declined")).toBe(false);
    expect(handRefundCheck({ lastError, nextAttemptAt: later(6 * 3_600_000) }, now)).toEqual({
      ok: false,
      reason: "sin_respuesta",
    });
  });

  it("once the next ask is further off, with the moment the move itself must check again", () => {
    expect(
      handRefundCheck({ lastError: "tarjeta rechazada", nextAttemptAt: later(ASKING_MS + 1) }, now),
    ).toEqual({
      ok: true,
      quietUntil: later(ASKING_MS),
    });
  });
});

describe("which refunds only the owner can make", () => {
  it("cash paid at OXXO, and a payment taken by a provider the shop no longer runs", () => {
    expect(byHandOnly({ provider: "stripe", paymentMethod: "oxxo" }, "stripe")).toContain(
      "OXXO, que no admite reembolsos",
    );
    expect(byHandOnly({ provider: "demo", paymentMethod: null }, "stripe")).toBe(
      "se pagó con «demo», que la tienda ya no usa: reembólsalo desde ahí",
    );
  });

  it("its reasons are told apart from a provider's failure (the desk says the owner must make it)", () => {
    for (const paid of [
      { provider: "stripe", paymentMethod: "oxxo" },
      { provider: "demo", paymentMethod: null },
    ])
      expect(isByHandReason(byHandOnly(paid, "stripe"))).toBe(true);
    expect(isByHandReason("Stripe no hizo el reembolso: card_declined")).toBe(false);
    expect(isByHandReason(null)).toBe(false);
  });

  it("not a card or a SPEI transfer through the provider running now: that one is asked", () => {
    expect(byHandOnly({ provider: "stripe", paymentMethod: null }, "stripe")).toBeNull();
    expect(byHandOnly({ provider: "stripe", paymentMethod: "spei" }, "stripe")).toBeNull();
  });
});
