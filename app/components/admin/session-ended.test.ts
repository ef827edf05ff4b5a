import { redirect } from "react-router";
import { describe, expect, it } from "vitest";
import { keepFormWhenSessionEnds, sessionEnded, sessionIsBack } from "./session-ended";

/** A 401 thrown by a server action, as the client receives it (an error response). */
function sessionOver(): never {
  throw Object.assign(new Error("401"), {
    status: 401,
    statusText: "Unauthorized",
    data: { message: "Tu sesión terminó. Inicia sesión de nuevo." },
    internal: false,
  });
}

describe("a save after the session ended", () => {
  it("answers in place (a 401, nothing thrown) and says so; the next save that goes through, by answer or by redirect, ends the notice", async () => {
    const answer = await keepFormWhenSessionEnds({ serverAction: async () => sessionOver() });
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(401);
    expect(sessionEnded()).toBe(true);

    // Signed in again: the save redirects (a new drop, the settings), thrown as a Response.
    const saved = redirect("/admin/drops/show-upcoming-drops?aviso=creado");
    await expect(keepFormWhenSessionEnds({ serverAction: async () => Promise.reject(saved) })).rejects.toBe(
      saved,
    );
    expect(sessionEnded()).toBe(false);

    await keepFormWhenSessionEnds({ serverAction: async () => sessionOver() });
    expect(await keepFormWhenSessionEnds({ serverAction: async () => ({ ok: true }) })).toEqual({ ok: true });
    expect(sessionEnded()).toBe(false);

    // Or an admin page loaded in this tab after signing in there.
    await keepFormWhenSessionEnds({ serverAction: async () => sessionOver() });
    sessionIsBack();
    expect(sessionEnded()).toBe(false);
  });
});
