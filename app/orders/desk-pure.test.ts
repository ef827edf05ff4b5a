import { describe, expect, it } from "vitest";
import { formatShopDateTime, shopDateTimeStamp, shopTimeToInstant } from "~/lib/dates";
import { DEFAULT_CARRIERS, trackingLink } from "~/settings/carriers";
import { deskSearch, parseDeskQuery } from "./desk-query";
import { containsPattern, foldForSearch, orderSearchKey } from "./search";
import { INCOMPLETE_SHIPMENT, shipmentInput } from "./shipment-input";

/** A LIKE pattern as the database reads it, for checking what a search term matches. */
function likeMatches(pattern: string, text: string): boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? "";
    if (c === "\\") re += (pattern[++i] ?? "").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    else if (c === "%") re += "[\\s\\S]*";
    else if (c === "_") re += "[\\s\\S]";
    else re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${re}$`).test(text);
}

describe("order search text", () => {
  it("folds case, accents and spaces the same way for names and terms", () => {
    expect(foldForSearch("José Núñez")).toBe("jose nunez");
    expect(foldForSearch("  RENATA\t\nQuiroga  ")).toBe("renata quiroga");
    expect(foldForSearch("Ángeles Peña Güemes")).toBe("angeles pena guemes");
    // A name typed with combining accents (as some phones do) folds like the precomposed one.
    expect(foldForSearch("Jose\u0301")).toBe(foldForSearch("José"));
  });

  it("an order is found by its number and its customer's name", () => {
    const key = orderSearchKey("OL-AB12CD34", "José Núñez");
    expect(key).toBe("ol-ab12cd34 jose nunez");
    for (const term of ["jose", "JOSÉ", "núñez", "nunez", "ol-ab12", "ab12cd34", "AB12CD34", "josé núñez"]) {
      expect(likeMatches(containsPattern(term), key), term).toBe(true);
    }
    for (const term of ["maria", "ol-ab13", "jose  x"]) {
      expect(likeMatches(containsPattern(term), key), term).toBe(false);
    }
  });

  it("LIKE's wildcards in a term are taken literally", () => {
    expect(containsPattern("100%")).toBe("%100\\%%");
    expect(containsPattern("a_b")).toBe("%a\\_b%");
    expect(containsPattern("a\\b")).toBe("%a\\\\b%");
    const key = orderSearchKey("OL-AB12CD34", "Renata Quiroga");
    expect(likeMatches(containsPattern("%"), key)).toBe(false);
    expect(likeMatches(containsPattern("_"), key)).toBe(false);
    expect(likeMatches(containsPattern("r_nata"), key)).toBe(false);
    expect(likeMatches(containsPattern("%"), orderSearchKey("OL-AB12CD34", "Tienda 100% Oro"))).toBe(true);
  });
});

describe("tracking links", () => {
  it("a known carrier links to its tracking page with the number", () => {
    expect(trackingLink("Estafeta", "1234567890")).toBe(
      "https://www.estafeta.com/rastrear-envio?guias=1234567890",
    );
    expect(trackingLink("DHL Express", "JD0146")).toBe(
      "https://www.dhl.com/mx-es/home/rastreo.html?tracking-id=JD0146",
    );
  });

  it("every carrier of the list but 'Otra' has a link", () => {
    expect(DEFAULT_CARRIERS.map((c) => c.name)).toEqual([
      "Estafeta",
      "DHL Express",
      "FedEx",
      "Redpack",
      "Paquetexpress",
      "99minutos",
      "J&T Express",
    ]);
    for (const c of DEFAULT_CARRIERS) expect(trackingLink(c.name, "ABC123"), c.name).toContain("ABC123");
  });

  it("ignores case and surrounding spaces of the carrier's name", () => {
    expect(trackingLink("  estafeta ", "99")).toBe("https://www.estafeta.com/rastrear-envio?guias=99");
    expect(trackingLink("FEDEX", "99")).toBe("https://www.fedex.com/fedextrack/?trknbr=99");
  });

  it("an unknown carrier, 'Otra' or a missing number has no link", () => {
    expect(trackingLink("Otra", "123")).toBeNull();
    expect(trackingLink("Mensajería Don Chucho", "123")).toBeNull();
    expect(trackingLink("Estafeta", "")).toBeNull();
    expect(trackingLink(null, "123")).toBeNull();
    expect(trackingLink("Estafeta", null)).toBeNull();
  });

  it("the tracking number is URL-encoded, so it cannot change the address", () => {
    expect(trackingLink("Estafeta", " 12 34&x=/# ")).toBe(
      "https://www.estafeta.com/rastrear-envio?guias=12%2034%26x%3D%2F%23",
    );
    expect(trackingLink("Paquetexpress", "../../admin")).toBe(
      "https://www.paquetexpress.com.mx/rastreo/..%2F..%2Fadmin",
    );
  });

  it("uses the owner's edited list when given one", () => {
    const list = [{ name: "Mensajería Oaxaca", trackingUrl: "https://mo.example/g/{guia}" }];
    expect(trackingLink("mensajería oaxaca", "A1", list)).toBe("https://mo.example/g/A1");
    expect(trackingLink("Estafeta", "A1", list)).toBeNull();
  });
});

describe("the 'Atender pedido' form", () => {
  const parse = (input: Record<string, unknown>) => shipmentInput.safeParse(input);
  const messages = (input: Record<string, unknown>) => {
    const result = parse(input);
    return result.success ? [] : result.error.issues.map((i) => i.message);
  };

  it("accepts a carrier from the list and a tracking number, trimmed", () => {
    expect(parse({ carrier: " Estafeta ", trackingNumber: "  8052 1234 567  " })).toEqual({
      success: true,
      data: { carrier: "Estafeta", trackingNumber: "8052 1234 567" },
    });
  });

  it("a missing carrier or tracking number gives the spec's message", () => {
    expect(messages({ carrier: "", trackingNumber: "123456" })).toEqual([INCOMPLETE_SHIPMENT]);
    expect(messages({ carrier: "Estafeta", trackingNumber: "" })).toEqual([INCOMPLETE_SHIPMENT]);
    expect(messages({ carrier: "Estafeta", trackingNumber: "   " })).toEqual([INCOMPLETE_SHIPMENT]);
    expect(messages({ carrier: "  ", trackingNumber: "  " })).toEqual([INCOMPLETE_SHIPMENT]);
    expect(INCOMPLETE_SHIPMENT).toBe("Por favor completa todos los campos.");
  });

  it("'Otra' needs the carrier's name, which becomes the carrier", () => {
    expect(messages({ carrier: "Otra", trackingNumber: "123456" })).toEqual([INCOMPLETE_SHIPMENT]);
    expect(messages({ carrier: "Otra", otherCarrier: "   ", trackingNumber: "123456" })).toEqual([
      INCOMPLETE_SHIPMENT,
    ]);
    expect(parse({ carrier: "Otra", otherCarrier: " Mensajería Oaxaca ", trackingNumber: "MX-77" })).toEqual({
      success: true,
      data: { carrier: "Mensajería Oaxaca", trackingNumber: "MX-77" },
    });
  });

  it("a carrier that is not on the list is refused", () => {
    const refused = messages({ carrier: "Correos Piratas", trackingNumber: "123456" });
    expect(refused).toEqual(["Elige una paquetería de la lista, u 'Otra'."]);
    // 'Otra' with a name is the way to use a carrier that is not listed.
    expect(
      parse({ carrier: "Otra", otherCarrier: "Correos Piratas", trackingNumber: "123456" }).success,
    ).toBe(true);
  });

  it("control characters and NUL are refused in the carrier's name and the tracking number, saying so", () => {
    const carrier = "Paquetería: contiene caracteres no permitidos.";
    const tracking = "Número de guía: contiene caracteres no permitidos.";
    expect(messages({ carrier: "Otra", otherCarrier: "Mensa\u0000jería", trackingNumber: "123456" })).toEqual(
      [carrier],
    );
    expect(messages({ carrier: "Otra", otherCarrier: "Mensa\u001bjería", trackingNumber: "123456" })).toEqual(
      [carrier],
    );
    expect(messages({ carrier: "Estafeta\u0000", trackingNumber: "123456" })).toEqual([carrier]);
    expect(messages({ carrier: "Estafeta", trackingNumber: "123\u0000456" })).toEqual([tracking]);
    expect(messages({ carrier: "Estafeta", trackingNumber: "123\n456" })).toEqual([tracking]);
    expect(messages({ carrier: "Estafeta", trackingNumber: "123\u007f456" })).toEqual([tracking]);
  });

  it("a tracking number must be 3 to 60 letters, digits or - . / #", () => {
    expect(parse({ carrier: "FedEx", trackingNumber: "AB" }).success).toBe(false);
    expect(parse({ carrier: "FedEx", trackingNumber: "ABC" }).success).toBe(true);
    expect(parse({ carrier: "FedEx", trackingNumber: "A".repeat(60) }).success).toBe(true);
    expect(parse({ carrier: "FedEx", trackingNumber: "A".repeat(61) }).success).toBe(false);
    expect(parse({ carrier: "FedEx", trackingNumber: "MX-12.34/5#6" }).success).toBe(true);
    expect(parse({ carrier: "FedEx", trackingNumber: "<script>" }).success).toBe(false);
    expect(parse({ carrier: "FedEx", trackingNumber: "12&x=1" }).success).toBe(false);
  });

  it("a free carrier name is at most 60 characters", () => {
    expect(parse({ carrier: "Otra", otherCarrier: "M".repeat(60), trackingNumber: "123" }).success).toBe(
      true,
    );
    expect(parse({ carrier: "Otra", otherCarrier: "M".repeat(61), trackingNumber: "123" }).success).toBe(
      false,
    );
  });

  it("anything that is not text is refused, not thrown", () => {
    expect(parse({ carrier: 5, trackingNumber: "123" }).success).toBe(false);
    expect(parse({}).success).toBe(false);
  });
});

describe("the desk's address parameters", () => {
  const parse = (query: string) => parseDeskQuery(new URLSearchParams(query));

  it("opens on the pending tab, page 1, with nothing filtered", () => {
    expect(parse("")).toEqual({
      query: { tab: "pendiente", search: "", from: null, until: null, page: 1 },
      values: { tab: "pendiente", search: "", from: "", until: "" },
      errors: [],
      notice: null,
      refused: false,
    });
  });

  it("says a known notice named in the address, and nothing else", () => {
    expect(parse("aviso=cancelado").notice).toBe(
      "Pedido cancelado; su reembolso va por el proveedor de pagos y queda en «Cancelados»",
    );
    expect(parse("aviso=borrado").notice).toBe(
      "Pedido borrado del historial; su registro queda en «Borrados del historial»",
    );
    expect(parse("aviso=eliminado").notice).toBeNull();
    expect(parse("aviso=%3Cscript%3E").notice).toBeNull();
    expect(parse("aviso=toString").notice).toBeNull();
  });

  it("reads the tab, falling back to pendiente for anything else", () => {
    expect(parse("estado=enviado").query.tab).toBe("enviado");
    expect(parse("estado=archivado").query.tab).toBe("archivado");
    expect(parse("estado=esperando_pago").query.tab).toBe("pendiente");
    expect(parse("estado=expirado").query.tab).toBe("pendiente");
    expect(parse("estado=ENVIADO").query.tab).toBe("pendiente");
  });

  it("trims the search and cuts very long ones", () => {
    expect(parse("q=%20%20Renata%20%20").query.search).toBe("Renata");
    expect(parse(`q=${"a".repeat(300)}`).query.search).toHaveLength(100);
    expect(parse("q=Renata").refused).toBe(false);
  });

  it.each(["Ana%00P%C3%A9rez", "Ana%07", "%1B%5B31m", "Ana%0APérez", "Ana%09Pérez", "Ana%7F"])(
    "refuses a search with a control character (%s): said in Spanish, searched for nothing",
    (q) => {
      const { query, values, errors, refused } = parse(`estado=enviado&q=${q}`);
      expect(refused).toBe(true);
      expect(errors).toEqual(["Búsqueda: contiene caracteres no permitidos."]);
      expect(query.search).toBe("");
      expect(values.search).toBe("");
    },
  );

  it("'desde' starts at midnight in Mexico City, 'hasta' includes its whole day", () => {
    const { query, values, errors } = parse("desde=2026-11-23&hasta=2026-11-24");
    expect(errors).toEqual([]);
    expect(query.from?.toISOString()).toBe("2026-11-23T06:00:00.000Z");
    // Exclusive end: the first instant of the 25th, so 23:59 on the 24th is in.
    expect(query.until?.toISOString()).toBe("2026-11-25T06:00:00.000Z");
    expect(values).toMatchObject({ from: "2026-11-23", until: "2026-11-24" });
  });

  it("'hasta' on the last day of a month or a year ends at the next day's midnight", () => {
    expect(parse("hasta=2026-02-28").query.until?.toISOString()).toBe("2026-03-01T06:00:00.000Z");
    expect(parse("hasta=2028-02-28").query.until?.toISOString()).toBe("2028-02-29T06:00:00.000Z");
    expect(parse("hasta=2026-12-31").query.until?.toISOString()).toBe("2027-01-01T06:00:00.000Z");
  });

  it("a date that is not a real one is said in Spanish and left out", () => {
    const { query, values, errors } = parse("estado=enviado&desde=2026-02-30&hasta=mañana&q=Ana");
    expect(errors).toEqual([
      "La fecha «2026-02-30» no es válida: usa el formato AAAA-MM-DD.",
      "La fecha «mañana» no es válida: usa el formato AAAA-MM-DD.",
    ]);
    expect(query).toMatchObject({ tab: "enviado", search: "Ana", from: null, until: null });
    expect(values).toMatchObject({ from: "", until: "" });
    // The message does not echo an endless value.
    expect(parse(`desde=${"9".repeat(500)}`).errors[0]?.length).toBeLessThan(80);
  });

  it("reads the page, with anything odd meaning page 1", () => {
    expect(parse("pagina=3").query.page).toBe(3);
    for (const odd of ["0", "-2", "abc", "", "%00"]) expect(parse(`pagina=${odd}`).query.page, odd).toBe(1);
    expect(parse("pagina=99999999999").query.page).toBe(100_000);
  });

  it("writes the same parameters back, leaving out empty ones and page 1", () => {
    expect(deskSearch({ tab: "enviado", search: "José", from: "2026-11-01", until: "", page: 1 })).toBe(
      "?estado=enviado&q=Jos%C3%A9&desde=2026-11-01",
    );
    expect(deskSearch({ page: 2 })).toBe("?pagina=2");
    expect(deskSearch({})).toBe("");
    const back = parse(
      deskSearch({ tab: "archivado", search: "a&b", until: "2026-11-30", page: 4 }).slice(1),
    );
    expect(back.values).toEqual({ tab: "archivado", search: "a&b", from: "", until: "2026-11-30" });
    expect(back.query.page).toBe(4);
  });
});

describe("Mexico City time", () => {
  it("a Mexico City day starts at 06:00 UTC, winter and summer alike (no DST since 2022)", () => {
    expect(shopTimeToInstant("2026-11-23")?.toISOString()).toBe("2026-11-23T06:00:00.000Z");
    expect(shopTimeToInstant("2026-07-15")?.toISOString()).toBe("2026-07-15T06:00:00.000Z");
    expect(shopTimeToInstant("2026-04-05", "14:05")?.toISOString()).toBe("2026-04-05T20:05:00.000Z");
    expect(shopTimeToInstant("2026-11-23", "23:59:59")?.toISOString()).toBe("2026-11-24T05:59:59.000Z");
  });

  it("older dates keep the summer time Mexico City had then", () => {
    expect(shopTimeToInstant("2021-07-01")?.toISOString()).toBe("2021-07-01T05:00:00.000Z");
  });

  it("a date or time that does not exist is null", () => {
    for (const [date, time] of [
      ["2026-02-30", undefined],
      ["2026-02-29", undefined],
      ["2026-13-01", undefined],
      ["2026-00-10", undefined],
      ["2026-11-31", undefined],
      ["26-11-23", undefined],
      ["2026-11-23T00:00", undefined],
      ["", undefined],
      ["2026-11-23", "24:00"],
      ["2026-11-23", "12:60"],
      ["2026-11-23", "12:00:60"],
      ["2026-11-23", "7:00"],
      ["2026-11-23", ""],
    ] as const) {
      expect(shopTimeToInstant(date, time), `${date} ${time}`).toBeNull();
    }
    expect(shopTimeToInstant("2028-02-29")?.toISOString()).toBe("2028-02-29T06:00:00.000Z");
  });

  it("dates and times are shown on Mexico City's clock", () => {
    expect(formatShopDateTime(new Date("2026-11-23T20:05:00Z"))).toBe("23 nov 2026, 14:05");
    // Just after midnight UTC is still the evening before in Mexico City.
    expect(formatShopDateTime(new Date("2026-01-01T03:30:00Z"))).toBe("31 dic 2025, 21:30");
  });

  it("CSV stamps sort as text and use Mexico City's day", () => {
    expect(shopDateTimeStamp(new Date("2026-11-23T20:05:00Z"))).toBe("2026-11-23 14:05");
    expect(shopDateTimeStamp(new Date("2026-01-05T05:59:00Z"))).toBe("2026-01-04 23:59");
    expect(shopDateTimeStamp(new Date("2026-03-01T06:00:00Z"))).toBe("2026-03-01 00:00");
    const stamps = ["2026-12-01T18:00:00Z", "2026-02-01T18:00:00Z", "2026-11-09T18:00:00Z"].map((s) =>
      shopDateTimeStamp(new Date(s)),
    );
    expect([...stamps].sort()).toEqual([stamps[1], stamps[2], stamps[0]]);
  });
});
