import { describe, expect, it } from "vitest";
import { foldMailbox } from "./mailbox";

describe("foldMailbox", () => {
  it("folds sub-addressing for every domain", () => {
    expect(foldMailbox("victima+1@example.mx")).toBe("victima@example.mx");
    expect(foldMailbox("victima+a+b@example.mx")).toBe("victima@example.mx");
    expect(foldMailbox("  Victima+Drop@Example.MX ")).toBe("victima@example.mx");
    expect(foldMailbox("victima+@proton.me")).toBe("victima@proton.me");
  });

  it("drops dots where the provider ignores them, and unifies googlemail.com with gmail.com", () => {
    expect(foldMailbox("a.n.a@gmail.com")).toBe("ana@gmail.com");
    expect(foldMailbox("A.na+junio@GoogleMail.com")).toBe("ana@gmail.com");
    expect(foldMailbox("ana@googlemail.com")).toBe(foldMailbox("ana@gmail.com"));
  });

  it("keeps dots elsewhere: other providers deliver a.na and ana to different people", () => {
    expect(foldMailbox("a.na@example.mx")).toBe("a.na@example.mx");
    expect(foldMailbox("a.na@outlook.com")).not.toBe(foldMailbox("ana@outlook.com"));
  });

  it("leaves odd shapes alone rather than merging them into another mailbox", () => {
    expect(foldMailbox("+solo@example.mx")).toBe("+solo@example.mx");
    expect(foldMailbox("...@gmail.com")).toBe("...@gmail.com");
    expect(foldMailbox("sin-arroba")).toBe("sin-arroba");
    // The last @ separates the domain (a quoted local part may hold one).
    expect(foldMailbox('"a@b"+x@example.mx')).toBe('"a@b"@example.mx');
    // A domain named like an object's own members is a domain like any other.
    expect(foldMailbox("a.na@constructor")).toBe("a.na@constructor");
    expect(foldMailbox("a.na+x@__proto__")).toBe("a.na@__proto__");
  });
});
