import { afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { type AdminAuth, createAdminAuth } from "~/auth/auth.server";
import { LOGIN_LIMITS } from "~/auth/login-limits.server";
import { createPasswordHasher, QUICK_SCRYPT } from "~/auth/password-hashing.server";
import { TRUSTED_DEVICE_COOKIE, TRUSTED_DEVICE_DAYS } from "~/auth/second-factor";
import { type Database, toDate, toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { describeEachDatabase } from "../support/databases";
import { cookiesFrom, setUpSecondFactor } from "../support/second-factor";
import { TOTP_STEP_SECONDS, totp, unusedCode } from "../support/totp";

const PASSWORD = "una contraseña bastante larga";
const DAY = 86_400_000;

describeEachDatabase("the administrator's second factor", (harness) => {
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
        issuer: "Oro Taller",
      },
      // Many sign-ins here: a test bench's quick hashes, without the line's 200 ms pace (the hash
      // and the line are tested in admin-auth.db.test.ts and password-hashing.test.ts).
      { hasher: createPasswordHasher({ running: 2, waiting: 64, spacingMs: 0 }, QUICK_SCRYPT) },
    );
  });
  beforeEach(async () => {
    await database.db.deleteFrom("login_failures").execute();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function newAdmin() {
    const email = `admin-${newId(8)}@example.com`;
    await auth.createAdmin({ email, name: "Admin", password: PASSWORD });
    return email;
  }

  async function adminWithApp() {
    const email = await newAdmin();
    return { email, ...(await setUpSecondFactor(auth, { email, password: PASSWORD })) };
  }

  /** The password step; returns the cookies a browser would send to the code page. */
  async function passwordStep(
    email: string,
    cookie = "",
    address = "10.9.0.1",
    browserId: string | null = null,
  ) {
    const result = await auth.signIn({
      email,
      password: PASSWORD,
      address,
      headers: new Headers(cookie ? { cookie } : {}),
      secure: false,
      browserId,
    });
    if (!result.ok) throw new Error(`sign-in refused: ${result.reason}`);
    return { result, cookie: cookiesFrom(result.setCookies) };
  }

  function typeCode(
    cookie: string,
    code: string,
    trustDevice = false,
    address = "10.9.0.1",
    browserId: string | null = null,
  ) {
    return auth.verifyCode({
      code,
      trustDevice,
      address,
      headers: new Headers({ cookie }),
      secure: false,
      browserId,
    });
  }

  const sessionCount = async (email: string) =>
    Number(
      (
        await database.db
          .selectFrom("auth_session as s")
          .innerJoin("auth_user as u", "u.id", "s.user_id")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("u.email", "=", email)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("the first sign-in only sets it up: the app's first code completes the session and gives ten one-time recovery codes", async () => {
    const email = await newAdmin();
    const first = await passwordStep(email);
    if (first.result.step !== "set-up") throw new Error(`step ${first.result.step}`);
    const started = first.result.session;
    const setUpSession = (await auth.readSession(new Headers({ cookie: first.cookie }), false)).session;
    expect(setUpSession?.settingUp).toBe(true);

    const pending = await auth.pendingSetUp(started);
    if (!pending) throw new Error("no secret");
    expect(pending.secret).toMatch(/^[A-Z2-7]{32,}$/);
    expect(pending.uri).toBe(
      `otpauth://totp/Oro%20Taller:${encodeURIComponent(email)}?secret=${pending.secret}&issuer=Oro+Taller&digits=6&period=30`,
    );
    // Kept encrypted: the stored row does not carry the secret.
    const row = await database.db.selectFrom("auth_two_factor").selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(pending.secret);

    const set = (code: string) =>
      auth.completeSetUp({
        session: started,
        code,
        address: "10.9.0.1",
        headers: new Headers({ cookie: first.cookie }),
        secure: false,
      });
    const wrong = totp(pending.secret) === "000000" ? "111111" : "000000";
    expect(await set(wrong)).toEqual({ ok: false, reason: "invalido" });
    const done = await set(totp(pending.secret));
    if (!done.ok) throw new Error(done.reason);
    expect(done.recoveryCodes).toHaveLength(10);
    expect(new Set(done.recoveryCodes).size).toBe(10);
    expect(
      JSON.stringify(await database.db.selectFrom("auth_two_factor").selectAll().execute()),
    ).not.toContain(done.recoveryCodes[0]);

    // The set-up session is swapped for a complete one.
    expect((await auth.readSession(new Headers({ cookie: first.cookie }), false)).session).toBeNull();
    const complete = (await auth.readSession(new Headers({ cookie: cookiesFrom(done.setCookies) }), false))
      .session;
    if (!complete) throw new Error("no session");
    expect(complete).toMatchObject({ email, settingUp: false });
    expect(await auth.pendingSetUp(complete)).toBeNull();
    expect((await auth.listAdmins()).find((a) => a.email === email)?.secondFactor).toBe(true);
  });

  it("a leaked password signed in before the owner set it up: its session ends, it never sees her secret, it never becomes whole", async () => {
    const email = await newAdmin();
    // Someone with the password signs in first: a set-up session, shown a secret.
    const intruder = await passwordStep(email, "", "203.0.113.9");
    if (intruder.result.step !== "set-up") throw new Error(`step ${intruder.result.step}`);
    const seen = await auth.pendingSetUp(intruder.result.session);
    if (!seen) throw new Error("no secret");

    // The owner signs in: a secret of her own, and the other session is over.
    const owner = await passwordStep(email);
    if (owner.result.step !== "set-up") throw new Error(`step ${owner.result.step}`);
    expect((await auth.readSession(new Headers({ cookie: intruder.cookie }), false)).session).toBeNull();
    const mine = await auth.pendingSetUp(owner.result.session);
    if (!mine) throw new Error("no secret");
    expect(mine.secret).not.toBe(seen.secret);

    // A session of the account left from before (as a second browser would hold) ends when she
    // finishes: only her new, whole session is left.
    const before = await database.db
      .selectFrom("auth_session")
      .selectAll()
      .where("id", "=", owner.result.session.sessionId)
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto("auth_session")
      .values({
        ...before,
        id: newId(),
        token: newId(32),
        created_at: toTimestamp(toDate(before.created_at)),
        updated_at: toTimestamp(toDate(before.updated_at)),
        expires_at: toTimestamp(toDate(before.expires_at)),
      })
      .execute();
    expect(await sessionCount(email)).toBe(2);
    const done = await auth.completeSetUp({
      session: owner.result.session,
      code: totp(mine.secret),
      address: "10.9.0.1",
      headers: new Headers({ cookie: owner.cookie }),
      secure: false,
    });
    if (!done.ok) throw new Error(done.reason);
    expect(await sessionCount(email)).toBe(1);
    expect((await auth.readSession(new Headers({ cookie: intruder.cookie }), false)).session).toBeNull();
    expect(
      (await auth.readSession(new Headers({ cookie: cookiesFrom(done.setCookies) }), false)).session,
    ).toMatchObject({ email, settingUp: false });
    // The secret the intruder saw opens nothing.
    const challenge = await passwordStep(email);
    expect(await typeCode(challenge.cookie, totp(seen.secret))).toMatchObject({ ok: false });
  });

  it("a password reset drops a second factor not set up yet: whoever had the old password saw its secret", async () => {
    const email = await newAdmin();
    const first = await passwordStep(email);
    if (first.result.step !== "set-up") throw new Error(`step ${first.result.step}`);
    const pendingRows = () =>
      database.db
        .selectFrom("auth_two_factor as t")
        .innerJoin("auth_user as u", "u.id", "t.user_id")
        .select("t.id")
        .where("u.email", "=", email)
        .execute();
    expect(await pendingRows()).toHaveLength(1);
    await auth.resetPassword(email, `${PASSWORD} nueva`);
    expect(await pendingRows()).toEqual([]);
    expect(await sessionCount(email)).toBe(0);
  });

  it("then every sign-in asks for the code: no session until it is typed, a wrong one is refused", async () => {
    const admin = await adminWithApp();
    const { result, cookie } = await passwordStep(admin.email);
    expect(result.step).toBe("code");
    expect(await sessionCount(admin.email)).toBe(0);
    const right = await unusedCode(admin.secret);
    expect(await typeCode(cookie, right === "123456" ? "654321" : "123456")).toEqual({
      ok: false,
      reason: "invalido",
    });
    expect(await sessionCount(admin.email)).toBe(0);
    const done = await typeCode(cookie, right);
    if (!done.ok) throw new Error(done.reason);
    expect(done.session).toMatchObject({ email: admin.email, settingUp: false });
    expect(
      (await auth.readSession(new Headers({ cookie: cookiesFrom(done.setCookies) }), false)).session?.email,
    ).toBe(admin.email);
    // The challenge was used up with it; without one no code is checked.
    expect(await typeCode(cookie, right)).toEqual({ ok: false, reason: "vencido" });
    expect(await typeCode("", right)).toEqual({ ok: false, reason: "vencido" });
  });

  it("accepts the code of the current 30-second step and of one step either side, no further, each once", async () => {
    const admin = await adminWithApp();
    vi.useFakeTimers({ toFake: ["Date"] });
    // The middle of a step, so that nothing crosses a boundary while the test runs; two steps on
    // from the set-up's code, which spent its own step and every earlier one.
    const step = TOTP_STEP_SECONDS * 1000;
    const now = (Math.floor(Date.now() / step) + 2) * step + step / 2;
    vi.setSystemTime(now);
    const codeAt = (offset: number) => totp(admin.secret, { at: now, offset });
    // A refused code leaves the sign-in waiting; an accepted one ends it.
    const { cookie } = await passwordStep(admin.email);
    for (const offset of [-3, -2, 2, 3]) {
      expect(await typeCode(cookie, codeAt(offset)), `offset ${offset}`).toEqual({
        ok: false,
        reason: "invalido",
      });
    }
    expect((await typeCode(cookie, codeAt(-1))).ok).toBe(true);
    // Used once, a code is spent: typed again on a new sign-in it is a wrong code.
    const again = await passwordStep(admin.email);
    expect(await typeCode(again.cookie, codeAt(-1))).toEqual({ ok: false, reason: "invalido" });
    for (const offset of [0, 1]) {
      const next = await passwordStep(admin.email);
      expect((await typeCode(next.cookie, codeAt(offset))).ok, `offset ${offset}`).toBe(true);
    }
    // A later step's code spends the earlier ones: none of the window is good any more.
    for (const offset of [-1, 0, 1]) {
      const next = await passwordStep(admin.email);
      expect(await typeCode(next.cookie, codeAt(offset)), `offset ${offset}`).toEqual({
        ok: false,
        reason: "invalido",
      });
    }
  });

  it("a recovery code signs in once; used again it is refused", async () => {
    const admin = await adminWithApp();
    const code = admin.recoveryCodes[3] ?? "";
    const first = await passwordStep(admin.email);
    expect((await typeCode(first.cookie, code)).ok).toBe(true);
    const second = await passwordStep(admin.email);
    expect(await typeCode(second.cookie, code)).toEqual({ ok: false, reason: "invalido" });
    // The others still work.
    expect((await typeCode(second.cookie, admin.recoveryCodes[4] ?? "")).ok).toBe(true);
  });

  it("wrong codes count in the login limits with wrong passwords: past the account's limit even the right code is refused", async () => {
    const admin = await adminWithApp();
    const wrongPasswords = LOGIN_LIMITS.perAccount - 4;
    for (let i = 0; i < wrongPasswords; i++) {
      const answer = await auth.signIn({
        email: admin.email,
        password: `incorrecta-${i}-xxxx`,
        address: `10.8.0.${i}`,
        headers: new Headers(),
        secure: false,
      });
      expect(answer).toEqual({ ok: false, reason: "invalido" });
    }
    // The right password is not a failure, and does not clear the earlier ones: the code is still to come.
    const { cookie } = await passwordStep(admin.email, "", "10.8.1.1");
    const wrong = totp(admin.secret) === "000000" ? "111111" : "000000";
    for (let i = 0; i < 4; i++)
      expect(await typeCode(cookie, wrong, false, `10.8.2.${i}`)).toEqual({ ok: false, reason: "invalido" });
    const locked = await typeCode(cookie, totp(admin.secret), false, "10.8.3.1");
    expect(locked).toMatchObject({ ok: false, reason: "limitado" });
    if (locked.ok || locked.reason !== "limitado") throw new Error("not limited");
    expect(locked.retryAfterSeconds).toBeGreaterThan(0);
    expect(locked.retryAfterSeconds).toBeLessThanOrEqual(LOGIN_LIMITS.windowMinutes * 60);
    expect(await sessionCount(admin.email)).toBe(0);
  });

  it("a right code clears the account's failures from that browser", async () => {
    const admin = await adminWithApp();
    const browser = newId(22);
    const { cookie } = await passwordStep(admin.email, "", "10.9.0.1", browser);
    const wrong = totp(admin.secret) === "000000" ? "111111" : "000000";
    for (let i = 0; i < 3; i++) await typeCode(cookie, wrong, false, "10.9.0.1", browser);
    expect((await typeCode(cookie, await unusedCode(admin.secret), false, "10.9.0.1", browser)).ok).toBe(
      true,
    );
    const failures = await database.db
      .selectFrom("login_failures")
      .select("id")
      .where("email", "=", admin.email)
      .execute();
    expect(failures).toEqual([]);
  });

  it(`a trusted device skips the code for ${TRUSTED_DEVICE_DAYS} days from the code typed, however often it signs in`, async () => {
    const admin = await adminWithApp();
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    // The browser's own signed cookie's id: the trust is bound to it.
    const browser = newId(22);
    const challenge = await passwordStep(admin.email, "", "10.9.0.1", browser);
    const done = await typeCode(challenge.cookie, await unusedCode(admin.secret), true, "10.9.0.1", browser);
    if (!done.ok) throw new Error(done.reason);
    const trust = done.setCookies.find((c) => c.startsWith(`${TRUSTED_DEVICE_COOKIE}=`)) ?? "";
    expect(trust).toContain(`Max-Age=${TRUSTED_DEVICE_DAYS * 86_400}`);
    expect(trust).toContain("HttpOnly");
    let device = cookiesFrom([trust]);

    // Signing in from it every ten days: the code is skipped until the thirtieth day, not after.
    for (const day of [10, 20, 29]) {
      vi.setSystemTime(start + day * DAY);
      const { result } = await passwordStep(admin.email, device, "10.9.0.1", browser);
      expect(result.step, `day ${day}`).toBe("signed-in");
      const renewed = result.setCookies.find((c) => c.startsWith(`${TRUSTED_DEVICE_COOKIE}=`));
      if (renewed) device = cookiesFrom([renewed]);
    }
    vi.setSystemTime(start + (TRUSTED_DEVICE_DAYS * DAY + 60_000));
    expect((await passwordStep(admin.email, device, "10.9.0.1", browser)).result.step).toBe("code");
    // Another browser, or a forged cookie, is asked for the code: the trust cookie copied to
    // another browser (another signed cookie, or none) skips nothing.
    vi.setSystemTime(start + DAY);
    const fresh = await passwordStep(admin.email, "", "10.9.0.1", browser);
    const renewed = await typeCode(fresh.cookie, totp(admin.secret), true, "10.9.0.1", browser);
    if (!renewed.ok) throw new Error(renewed.reason);
    const copied = cookiesFrom(renewed.setCookies.filter((c) => c.startsWith(`${TRUSTED_DEVICE_COOKIE}=`)));
    // Copied to another browser, or to one without the shop's cookie, before its own uses it (a
    // use renews it, and the old record goes): the record is live, and still it skips nothing.
    expect((await passwordStep(admin.email, copied, "10.9.0.1", newId(22))).result.step).toBe("code");
    expect((await passwordStep(admin.email, copied)).result.step).toBe("code");
    expect((await passwordStep(admin.email, copied, "10.9.0.1", browser)).result.step).toBe("signed-in");
    expect(
      (await passwordStep(admin.email, `${TRUSTED_DEVICE_COOKIE}=falso.firma`, "10.9.0.1", browser)).result
        .step,
    ).toBe("code");
  });

  it("'Cerrar sesión en todos los dispositivos' ends the devices' trust too: the next sign-in asks the code", async () => {
    const admin = await adminWithApp();
    const browser = newId(22);
    const challenge = await passwordStep(admin.email, "", "10.9.0.1", browser);
    const done = await typeCode(challenge.cookie, await unusedCode(admin.secret), true, "10.9.0.1", browser);
    if (!done.ok) throw new Error(done.reason);
    let device = cookiesFrom(done.setCookies.filter((c) => c.startsWith(`${TRUSTED_DEVICE_COOKIE}=`)));
    const { result } = await passwordStep(admin.email, device, "10.9.0.1", browser);
    expect(result.step).toBe("signed-in");
    // Each use renews it: the cookie the browser holds now.
    const renewed = result.setCookies.find((c) => c.startsWith(`${TRUSTED_DEVICE_COOKIE}=`));
    if (renewed) device = cookiesFrom([renewed]);
    const user = await database.db
      .selectFrom("auth_user")
      .select("id")
      .where("email", "=", admin.email)
      .executeTakeFirstOrThrow();
    // Meanwhile someone with the password is half signed in elsewhere, waiting for a code.
    const pending = await passwordStep(admin.email, "", "10.9.0.2", newId(22));
    expect(pending.result.step).toBe("code");
    await auth.signOutEverywhere(user.id);
    expect((await passwordStep(admin.email, device, "10.9.0.1", browser)).result.step).toBe("code");
    // That half sign-in cannot be finished, even with a right code; the browser is no known device.
    const late = await typeCode(pending.cookie, await unusedCode(admin.secret), false, "10.9.0.2", newId(22));
    expect(late.ok).toBe(false);
    expect(
      await database.db
        .selectFrom("admin_devices")
        .select("browser_id")
        .where("user_id", "=", user.id)
        .execute(),
    ).toEqual([]);
  });

  it("the reset (npm run admin -- reset-2fa) ends its sessions and trusted devices; the next sign-in sets it up again", async () => {
    const admin = await adminWithApp();
    const browser = newId(22);
    const challenge = await passwordStep(admin.email, "", "10.9.0.1", browser);
    const done = await typeCode(challenge.cookie, await unusedCode(admin.secret), true, "10.9.0.1", browser);
    if (!done.ok) throw new Error(done.reason);
    const device = cookiesFrom(done.setCookies);
    expect(await sessionCount(admin.email)).toBe(1);
    const knownDevices = () =>
      database.db
        .selectFrom("admin_devices as d")
        .innerJoin("auth_user as u", "u.id", "d.user_id")
        .select("d.browser_id")
        .where("u.email", "=", admin.email)
        .execute();
    expect(await knownDevices()).toEqual([{ browser_id: browser }]);

    await auth.resetSecondFactor(admin.email.toUpperCase());
    expect(await sessionCount(admin.email)).toBe(0);
    // A lost phone is why the factor is reset: no browser stays a known device.
    expect(await knownDevices()).toEqual([]);
    expect((await auth.readSession(new Headers({ cookie: device }), false)).session).toBeNull();
    expect((await auth.listAdmins()).find((a) => a.email === admin.email)?.secondFactor).toBe(false);
    const again = await passwordStep(admin.email, device);
    if (again.result.step !== "set-up") throw new Error(`step ${again.result.step}`);
    const pending = await auth.pendingSetUp(again.result.session);
    expect(pending?.secret).toBeTruthy();
    expect(pending?.secret).not.toBe(admin.secret);
    // The old app's codes and recovery codes are worth nothing now.
    await expect(auth.resetSecondFactor("nadie@example.com")).rejects.toThrow(
      "No hay un administrador con el correo nadie@example.com.",
    );
  });
});
