import { beforeAll, expect, it } from "vitest";
import { type AdminAuth, createAdminAuth } from "~/auth/auth.server";
import { createPasswordHasher, QUICK_SCRYPT } from "~/auth/password-hashing.server";
import { loadConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import { adminsWithoutSecondFactor, readSetUpChecklist } from "~/settings/checklist.server";
import { settingsFromEnvironment } from "~/settings/settings";
import { describeEachDatabase } from "../support/databases";
import { setUpSecondFactor } from "../support/second-factor";

const PASSWORD = "una contraseña bastante larga";

describeEachDatabase("the set-up checklist's second factors", (harness) => {
  let database: Database;
  let auth: AdminAuth;

  beforeAll(async () => {
    database = await harness.fresh();
    auth = createAdminAuth(
      database,
      {
        secret: "secreto-de-prueba-0123456789abcdefghij",
        baseUrl: "http://localhost:3000",
        idleMinutes: 120,
        absoluteHours: 12,
      },
      { hasher: createPasswordHasher({ running: 2, waiting: 16, spacingMs: 0 }, QUICK_SCRYPT) },
    );
  });

  it("names the administrators without a second factor until each sets it up; other accounts do not count", async () => {
    expect(await adminsWithoutSecondFactor(database.db)).toEqual([]);
    await auth.createAdmin({ email: "ana@example.com", name: "Ana", password: PASSWORD });
    await auth.createAdmin({ email: "beto@example.com", name: "Beto", password: PASSWORD });
    expect(await adminsWithoutSecondFactor(database.db)).toEqual(["ana@example.com", "beto@example.com"]);

    await setUpSecondFactor(auth, { email: "ana@example.com", password: PASSWORD });
    expect(await adminsWithoutSecondFactor(database.db)).toEqual(["beto@example.com"]);

    const settings = settingsFromEnvironment(loadConfig({ ENV_FILE: "" }).shop);
    const state = { settings, mailToOutbox: true, demoPayments: true };
    const second = (await readSetUpChecklist(database.db, state)).find((i) => i.id === "segundo-factor");
    expect(second).toMatchObject({ title: "Un administrador no tiene segundo factor" });
    expect(second?.why).toContain("falta en: beto@example.com.");

    await setUpSecondFactor(auth, { email: "beto@example.com", password: PASSWORD });
    // A sign-in library user that is not an administrator is not on the list.
    await database.db
      .updateTable("auth_user")
      .set({ role: "user" })
      .where("email", "=", "beto@example.com")
      .execute();
    await auth.resetSecondFactor("ana@example.com");
    expect(await adminsWithoutSecondFactor(database.db)).toEqual(["ana@example.com"]);
    await setUpSecondFactor(auth, { email: "ana@example.com", password: PASSWORD });
    const items = await readSetUpChecklist(database.db, state);
    expect(items.map((i) => i.id)).not.toContain("segundo-factor");
    expect(items.map((i) => i.id)).toEqual(
      expect.arrayContaining(["correo", "pagos", "aviso-de-privacidad"]),
    );
  });
});
