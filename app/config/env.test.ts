import { describe, expect, it } from "vitest";
import { loadConfig } from "./env.server";

describe("order ceilings (ORDER_MAX_PER_PRODUCT, ORDER_MAX_PIECES)", () => {
  it("default to 50 of a product and 100 in all; the owner may raise them to 1000", () => {
    expect(loadConfig({}).orderCeilings).toEqual({ perProduct: 50, pieces: 100 });
    expect(loadConfig({ ORDER_MAX_PER_PRODUCT: "200", ORDER_MAX_PIECES: "1000" }).orderCeilings).toEqual({
      perProduct: 200,
      pieces: 1000,
    });
  });

  it("a product's ceiling above the order's is the order's", () => {
    expect(loadConfig({ ORDER_MAX_PER_PRODUCT: "80", ORDER_MAX_PIECES: "60" }).orderCeilings).toEqual({
      perProduct: 60,
      pieces: 60,
    });
  });

  it("a value that is not a whole number from 1 to 1000 stops the server with the setting named", () => {
    for (const bad of ["0", "1001", "2.5", "muchas"]) {
      expect(() => loadConfig({ ORDER_MAX_PIECES: bad }), bad).toThrow(/ORDER_MAX_PIECES: debe/);
    }
  });
});

describe("the metrics' token (METRICS_TOKEN)", () => {
  it("is unset by default (no /metrics) and taken when 24 characters or more", () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: "" }).metricsToken).toBeNull();
    const token = "a".repeat(24);
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
  });

  it("a short one stops the server with the setting named", () => {
    expect(() => loadConfig({ METRICS_TOKEN: "corto" })).toThrow(/METRICS_TOKEN: debe tener al menos 24/);
  });
});

describe("the log's level (LOG_LEVEL)", () => {
  it("is info unless set; a level pino does not know stops the server with the setting named", () => {
    expect(loadConfig({}).logLevel).toBe("info");
    expect(loadConfig({ LOG_LEVEL: "warn" }).logLevel).toBe("warn");
    expect(() => loadConfig({ LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL: debe ser uno de: fatal, error/);
  });
});

describe("the access lines' memory (LOG_BUFFER_BYTES)", () => {
  it("is 8 MB unless set; less than 64 KB or not a whole number stops the server with the setting named", () => {
    expect(loadConfig({}).logBufferBytes).toBe(8 * 1024 * 1024);
    expect(loadConfig({ LOG_BUFFER_BYTES: "65536" }).logBufferBytes).toBe(65_536);
    for (const bad of ["1000", "-1", "1e5.5", "mucho"]) {
      expect(() => loadConfig({ LOG_BUFFER_BYTES: bad }), bad).toThrow(/LOG_BUFFER_BYTES: debe/);
    }
  });
});

describe("the mail account's daily quota (MAIL_DAILY_LIMIT)", () => {
  it("is unset by default (no budget) and taken as a whole number of 100 or more; anything else stops the server with the setting named", () => {
    expect(loadConfig({}).mail.dailyLimit).toBeNull();
    expect(loadConfig({ MAIL_DAILY_LIMIT: "" }).mail.dailyLimit).toBeNull();
    expect(loadConfig({ MAIL_DAILY_LIMIT: "2000" }).mail.dailyLimit).toBe(2000);
    for (const bad of ["99", "-1", "150.5", "mucho"]) {
      expect(() => loadConfig({ MAIL_DAILY_LIMIT: bad }), bad).toThrow(/MAIL_DAILY_LIMIT: debe/);
    }
  });
});

describe("the proof of work's difficulty (PROOF_OF_WORK_COST, PROOF_OF_WORK_TRIES)", () => {
  it("defaults to 1000 iterations a try and 5000 tries at most; a benchmark may lower both", () => {
    expect(loadConfig({}).proofOfWork).toEqual({ cost: 1_000, tries: 5_000 });
    expect(loadConfig({ PROOF_OF_WORK_COST: "1", PROOF_OF_WORK_TRIES: "20" }).proofOfWork).toEqual({
      cost: 1,
      tries: 20,
    });
  });

  it("a value that is not a whole number from 1 up stops the server with the setting named", () => {
    for (const bad of ["0", "-5", "1.5", "mucho", "2000000"]) {
      expect(() => loadConfig({ PROOF_OF_WORK_COST: bad }), bad).toThrow(/PROOF_OF_WORK_COST: debe/);
      expect(() => loadConfig({ PROOF_OF_WORK_TRIES: bad }), bad).toThrow(/PROOF_OF_WORK_TRIES: debe/);
    }
  });
});

describe("a test bench's quick password hashes (QUICK_PASSWORD_HASHES)", () => {
  it("are off unless asked for, and a public HTTPS shop refuses them with the setting named", () => {
    expect(loadConfig({}).admin.quickPasswordHashes).toBe(false);
    expect(loadConfig({ QUICK_PASSWORD_HASHES: "true" }).admin.quickPasswordHashes).toBe(true);
    expect(() =>
      loadConfig({
        QUICK_PASSWORD_HASHES: "true",
        PUBLIC_URL: "https://tienda.ejemplo.mx",
        SESSION_SECRET: "s".repeat(32),
        DEMO_PAYMENTS: "true",
      }),
    ).toThrow(/QUICK_PASSWORD_HASHES: solo para bancos de pruebas/);
    expect(() =>
      loadConfig({
        QUICK_PASSWORD_HASHES: "true",
        PUBLIC_URL: "http://localhost:3000",
        STRIPE_SECRET_KEY: "sk_live_123",
        STRIPE_WEBHOOK_SECRET: "whsec_123",
      }),
    ).toThrow(/QUICK_PASSWORD_HASHES: solo para bancos de pruebas/);
  });
});

describe("the demo catalogue (DEMO_DATA)", () => {
  it("is on for a shop tried out on a machine, off for one that looks real (PostgreSQL, public HTTPS, a live Stripe key) unless asked for", () => {
    expect(loadConfig({}).demoData).toBe(true);
    expect(
      loadConfig({
        DATABASE_URL: "postgres://u:p@127.0.0.1:5432/tienda",
        SESSION_SECRET: "s".repeat(32),
        DEMO_PAYMENTS: "true",
      }).demoData,
    ).toBe(false);
    const publicShop = {
      PUBLIC_URL: "https://tienda.ejemplo.mx",
      SESSION_SECRET: "s".repeat(32),
      DEMO_PAYMENTS: "true",
    };
    expect(loadConfig(publicShop).demoData).toBe(false);
    expect(loadConfig({ ...publicShop, DEMO_DATA: "true" }).demoData).toBe(true);
    expect(
      loadConfig({
        PUBLIC_URL: "http://localhost:3000",
        STRIPE_SECRET_KEY: "sk_live_123",
        STRIPE_WEBHOOK_SECRET: "whsec_123",
      }).demoData,
    ).toBe(false);
    expect(
      loadConfig({
        PUBLIC_URL: "http://localhost:3000",
        STRIPE_SECRET_KEY: "rk_live_123",
        STRIPE_WEBHOOK_SECRET: "whsec_123",
      }).demoData,
    ).toBe(false);
  });
});
