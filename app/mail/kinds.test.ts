import { describe, expect, it } from "vitest";
import { mailKindLabel } from "./kinds";

describe("e-mail kinds", () => {
  it("names every kind of message the shop sends in Spanish", () => {
    expect(mailKindLabel("confirmacion")).toBe("Confirmación de pedido");
    expect(mailKindLabel("avisame_apertura")).toBe("Avísame: la colección abrió");
    expect(mailKindLabel("campana_prueba")).toBe("Prueba del correo de apertura");
    expect(mailKindLabel("otro")).toBe("otro");
  });
});
