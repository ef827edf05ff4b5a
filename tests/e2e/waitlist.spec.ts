import { expect, expectAccessible, test, untilHydrated } from "./support/fixtures";

test("'Avísame': signing up on an upcoming drop's page answers in place, in Spanish, with a proof of work", {
  tag: "@once",
}, async ({ page, shop, database }) => {
  const drop = await shop.drop({
    timing: "upcoming",
    status: "proximamente",
    products: [{ name: "Anillo Lucero", priceCents: 300_000, stock: 5 }],
  });
  await page.goto(drop.href);
  const form = page.getByRole("region", { name: "Avísame cuando abra" });
  // The scripted form (its proof of work, its answer in place), not the plain one before it.
  await untilHydrated(form.locator("form"));
  await expect(form.getByRole("link", { name: "aviso de privacidad" })).toHaveAttribute(
    "href",
    "/aviso-de-privacidad",
  );
  const email = `lucero.${test.info().project.name}@example.mx`;
  await form.getByLabel("Correo electrónico").fill(email);
  // The box is required: the browser says so before anything is sent.
  await form.getByRole("button", { name: "Avísame" }).click();
  await expect(form.getByRole("status")).toHaveCount(0);
  await form.getByRole("checkbox").check();
  // The browser tests' shop asks for a proof of work (CHECKOUT_CHALLENGE, on by default): filling
  // in the form started solving one, sent with the form.
  const sent = page.waitForRequest((r) => r.method() === "POST" && r.url().includes(`/coleccion/`));
  await form.getByRole("button", { name: "Avísame" }).click();
  expect((await sent).postData()).toMatch(/(^|&)reto=[^&]+/);
  await expect(form.getByRole("status")).toHaveText(/^¡Listo! Revisa tu correo: te enviamos un enlace/);
  await expectAccessible(page);
  // In place: still the drop's page.
  await expect(page).toHaveURL(new RegExp(`${drop.href}$`));
  const row = await database.db
    .selectFrom("waitlist_subscriptions")
    .select(["status", "drop_id"])
    .where("email", "=", email)
    .executeTakeFirst();
  expect(row).toEqual({ status: "pendiente", drop_id: drop.id });
  // Its confirmation counted as one with a proof (decision 31).
  const counted = await database.db
    .selectFrom("waitlist_confirmation_sends")
    .select("without_proof")
    .where("mailbox", "=", email)
    .execute();
  expect(counted).toEqual([{ without_proof: 0 }]);
});

test("'Avísame' is not offered on a running drop", { tag: "@once" }, async ({ page, shop }) => {
  const drop = await shop.drop({
    timing: "running",
    products: [{ name: "Anillo Hoy", priceCents: 300_000, stock: 5 }],
  });
  await page.goto(drop.href);
  await expect(page.getByRole("heading", { name: drop.name, level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Avísame cuando abra" })).toHaveCount(0);
});

test("'Avísame': a proof the shop refuses is solved again and the form goes through in one press", {
  tag: "@once",
}, async ({ page, shop, database }) => {
  const drop = await shop.drop({
    timing: "upcoming",
    status: "proximamente",
    products: [{ name: "Anillo Aurora", priceCents: 300_000, stock: 5 }],
  });
  // The first sign-up's proof is spoiled on the way (as a cookie replaced under the page would
  // make it): the shop refuses it, and the page sends the form again with a new one.
  const posts: string[] = [];
  await page.route(/\/coleccion\/[a-z0-9]+(\.data)?(\?.*)?$/, async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    const body = request.postData() ?? "";
    posts.push(body);
    if (posts.length > 1) return route.continue();
    return route.continue({ postData: body.replace(/(^|&)reto=[^&]*/, "$1reto=estropeado") });
  });
  await page.goto(drop.href);
  const form = page.getByRole("region", { name: "Avísame cuando abra" });
  await untilHydrated(form.locator("form"));
  const email = `aurora.${test.info().project.name}@example.mx`;
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByRole("checkbox").check();
  await form.getByRole("button", { name: "Avísame" }).click();
  // Two proofs at the shop's own difficulty (a second or two each on a phone, more on a busy
  // test machine): the answer may take longer than an ordinary one.
  await expect(form.getByRole("status")).toHaveText(/^¡Listo! Revisa tu correo/, { timeout: 20_000 });
  expect(posts).toHaveLength(2);
  expect(posts[1]).toMatch(/(^|&)reto=[^&]+/);
  const counted = await database.db
    .selectFrom("waitlist_confirmation_sends")
    .select("without_proof")
    .where("mailbox", "=", email)
    .execute();
  expect(counted).toEqual([{ without_proof: 0 }]);
});

test.describe("without JavaScript", { tag: "@once" }, () => {
  test.use({ javaScriptEnabled: false });

  test("'Avísame' still signs up, as a sign-up without a proof of work", async ({ page, shop, database }) => {
    const drop = await shop.drop({
      timing: "upcoming",
      status: "proximamente",
      products: [{ name: "Anillo Alba", priceCents: 300_000, stock: 5 }],
    });
    await page.goto(drop.href);
    const form = page.getByRole("region", { name: "Avísame cuando abra" });
    const email = `alba.${test.info().project.name}@example.mx`;
    await form.getByLabel("Correo electrónico").fill(email);
    await form.getByRole("checkbox").check();
    await form.getByRole("button", { name: "Avísame" }).click();
    await expect(page.getByRole("status")).toHaveText(/^¡Listo! Revisa tu correo/);
    const counted = await database.db
      .selectFrom("waitlist_confirmation_sends")
      .select("without_proof")
      .where("mailbox", "=", email)
      .execute();
    expect(counted).toEqual([{ without_proof: 1 }]);
  });
});
