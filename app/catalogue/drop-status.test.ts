import { describe, expect, it } from "vitest";
import { normalizeDropStatus } from "./drop-status";

describe("normalizeDropStatus", () => {
  it("stores the edit form's 'archivado' as 'archivada'", () => {
    expect(normalizeDropStatus("archivado")).toBe("archivada");
    expect(normalizeDropStatus("archivada")).toBe("archivada");
  });

  it("accepts the three statuses, ignoring case, spaces and accents", () => {
    expect(normalizeDropStatus("proximamente")).toBe("proximamente");
    expect(normalizeDropStatus(" Próximamente ")).toBe("proximamente");
    expect(normalizeDropStatus("ACTIVA")).toBe("activa");
  });

  it("rejects anything else", () => {
    expect(normalizeDropStatus("")).toBeNull();
    expect(normalizeDropStatus("activo")).toBeNull();
    expect(normalizeDropStatus("borrada")).toBeNull();
  });
});
