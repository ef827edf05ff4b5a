import { describe, expect, it } from "vitest";
import { MAX_EXTRA_IMAGES, MAX_PRICE_CENTS, MAX_STOCK } from "~/db/taxonomy";
import { DB_INTEGER_MAX, MAX_CHARGE_CENTS } from "~/lib/money";
import { dropInput, MAX_PRODUCTS, parsePesos, pesosText } from "./drop-input";
import { fieldErrors, formToDropInput } from "./form-reading";

/** A well-formed media or drop id (16 of [a-z0-9]) that reads as what it stands for. */
const id = (tag: string) => tag.padEnd(16, "0");
const DROP = id("drop");

function product(over: Record<string, unknown> = {}) {
  return {
    name: "Anillo Marea",
    price: "4,500.00",
    stock: "3",
    categoria: "Anillo",
    material: "Oro rosa",
    imageId: id("main"),
    ...over,
  };
}

/** The create form as the page submits it, every field filled in correctly. */
function form(over: Record<string, unknown> = {}) {
  return {
    id: DROP,
    name: "Mareas",
    startDate: "2026-12-01",
    startTime: "10:00",
    endDate: "2026-12-07",
    endTime: "20:00",
    products: [product()],
    ...over,
  };
}

function parsed(input: unknown) {
  const result = dropInput.safeParse(input);
  if (!result.success) throw new Error(`refused: ${JSON.stringify(fieldErrors(result.error).fields)}`);
  return result.data;
}

/** What the owner reads next to each field (path -> message); empty when the form is accepted. */
function errorsOf(input: unknown): Record<string, string> {
  const result = dropInput.safeParse(input);
  return result.success ? {} : fieldErrors(result.error).fields;
}

const productErrors = (over: Record<string, unknown>) => errorsOf(form({ products: [product(over)] }));

describe("dropInput: the collection's own fields", () => {
  it("accepts a complete form and hands back centavos, numbers, instants and defaults", () => {
    const drop = parsed(
      form({ products: [product(), product({ name: "Collar Ola", extraImageIds: [id("x")] })] }),
    );
    expect(drop).toMatchObject({
      id: DROP,
      name: "Mareas",
      smallDescription: "",
      fullDescription: "",
      status: null,
      imageId: "",
      videoId: "",
      startAt: new Date("2026-12-01T16:00:00.000Z"),
      endAt: new Date("2026-12-08T02:00:00.000Z"),
    });
    expect(drop.products).toEqual([
      {
        id: "",
        name: "Anillo Marea",
        price: 450_000,
        stock: 3,
        stockLoaded: null,
        categoria: "Anillo",
        material: "Oro rosa",
        // The metal's facts are optional: not said is null.
        karat: null,
        weight: null,
        stones: null,
        edition: null,
        // No sizes: the stock typed is the product's.
        option: null,
        description: "",
        imageId: id("main"),
        imageAlt: "",
        extraImageIds: [],
        extraImageAlts: [],
      },
      expect.objectContaining({ name: "Collar Ola", extraImageIds: [id("x")] }),
    ]);
  });

  it("accepts a drop with no products yet", () => {
    expect(parsed(form({ products: [] })).products).toEqual([]);
  });

  it("requires the name, blank or spaces alike", () => {
    expect(errorsOf(form({ name: "" }))).toEqual({ name: "Escribe el nombre de la colección." });
    expect(errorsOf(form({ name: "   " }))).toEqual({ name: "Escribe el nombre de la colección." });
    expect(parsed(form({ name: "  Mareas  " })).name).toBe("Mareas");
  });

  it("takes a name of up to 120 characters", () => {
    expect(parsed(form({ name: "a".repeat(120) })).name).toHaveLength(120);
    expect(errorsOf(form({ name: "a".repeat(121) }))).toEqual({ name: "Nombre: máximo 120 caracteres." });
  });

  it.each([
    ["NUL", "Mare\u0000as"],
    ["NUL at the end", "Mareas\u0000"],
    ["bell", "Mare\u0007as"],
    ["escape", "Mare\u001bas"],
    ["delete", "Mare\u007fas"],
    ["C1 next line", "Mare\u0085as"],
    // A name is one line: tabs and line breaks only in the descriptions.
    ["line break", "Mare\nas"],
    ["CRLF", "Mare\r\nas"],
    ["tab", "Mare\tas"],
  ])("refuses a name with a control character (%s)", (_, name) => {
    expect(errorsOf(form({ name }))).toEqual({ name: "Nombre: contiene caracteres no permitidos." });
  });

  it("keeps accents, ñ and emoji in names", () => {
    expect(parsed(form({ name: "Colección Ñandú ✨" })).name).toBe("Colección Ñandú ✨");
  });

  it("keeps line breaks and tabs in the descriptions but refuses other control characters", () => {
    const drop = parsed(form({ smallDescription: "Olas\nde oro", fullDescription: "Uno\r\n\tDos" }));
    expect(drop.smallDescription).toBe("Olas\nde oro");
    expect(drop.fullDescription).toBe("Uno\r\n\tDos");
    expect(errorsOf(form({ fullDescription: "Uno\u0000Dos" }))).toEqual({
      fullDescription: "Descripción completa: contiene caracteres no permitidos.",
    });
  });

  it("limits the short description to 300 characters and the full one to 5000", () => {
    expect(
      parsed(form({ smallDescription: "a".repeat(300), fullDescription: "b".repeat(5000) })),
    ).toBeTruthy();
    expect(errorsOf(form({ smallDescription: "a".repeat(301) }))).toEqual({
      smallDescription: "Descripción corta: máximo 300 caracteres.",
    });
    expect(errorsOf(form({ fullDescription: "b".repeat(5001) }))).toEqual({
      fullDescription: "Descripción completa: máximo 5000 caracteres.",
    });
  });

  it("refuses a form whose drop id was not made by the page", () => {
    for (const bad of ["", "ABCDEFGHIJKMNPQR", "../../etc/passwd", id("drop").slice(1)]) {
      expect(errorsOf(form({ id: bad }))).toEqual({ id: "Formulario inválido: recarga la página." });
    }
  });

  it("refuses a drop image or video id that is not an id", () => {
    expect(errorsOf(form({ imageId: "../x" }))).toEqual({
      imageId: "Esa imagen no es válida; súbela de nuevo.",
    });
    expect(errorsOf(form({ videoId: "nope" }))).toEqual({
      videoId: "Esa imagen no es válida; súbela de nuevo.",
    });
    expect(parsed(form({ imageId: id("cover"), videoId: "" }))).toMatchObject({
      imageId: id("cover"),
      videoId: "",
    });
  });

  it("a field missing from the submission reads the same Spanish message as an empty one", () => {
    const { name: _n, startDate: _s, endDate: _e, ...rest } = form();
    expect(errorsOf(rest)).toEqual({
      name: "Escribe el nombre de la colección.",
      startDate: "Escribe la fecha de inicio.",
      endDate: "Escribe la fecha de fin.",
    });
    const { price: _p, stock: _st, name: _pn, ...bare } = product();
    expect(errorsOf(form({ products: [bare] }))).toEqual({
      "products.0.name": "Escribe el nombre del producto.",
      "products.0.price": "Escribe el precio.",
      "products.0.stock": "Escribe cuántas piezas hay.",
    });
  });
});

describe("dropInput: dates and times in Mexico City time", () => {
  it("reads 2026-12-01 10:00 as 16:00 UTC (UTC-6)", () => {
    expect(parsed(form({ startDate: "2026-12-01", startTime: "10:00" })).startAt.toISOString()).toBe(
      "2026-12-01T16:00:00.000Z",
    );
  });

  it("keeps UTC-6 in summer: Mexico City has had no daylight saving time since 2022", () => {
    const drop = parsed(form({ startDate: "2026-07-15", startTime: "10:00", endDate: "2026-07-20" }));
    expect(drop.startAt.toISOString()).toBe("2026-07-15T16:00:00.000Z");
  });

  it("an evening in Mexico City is already the next day in UTC", () => {
    const drop = parsed(
      form({ startDate: "2026-12-31", startTime: "20:00", endDate: "2027-01-01", endTime: "00:30" }),
    );
    expect(drop.startAt.toISOString()).toBe("2027-01-01T02:00:00.000Z");
    expect(drop.endAt.toISOString()).toBe("2027-01-01T06:30:00.000Z");
  });

  it("without times the drop runs from 00:00 of the first day to 23:59:59 of the last", () => {
    const drop = parsed(form({ startTime: undefined, endTime: "" }));
    expect(drop.startAt.toISOString()).toBe("2026-12-01T06:00:00.000Z");
    expect(drop.endAt.toISOString()).toBe("2026-12-08T05:59:59.000Z");
  });

  it("accepts times with seconds", () => {
    expect(parsed(form({ startTime: "10:00:30" })).startAt.toISOString()).toBe("2026-12-01T16:00:30.000Z");
  });

  it("requires both dates", () => {
    expect(errorsOf(form({ startDate: "" }))).toEqual({ startDate: "Escribe la fecha de inicio." });
    expect(errorsOf(form({ endDate: "  " }))).toEqual({ endDate: "Escribe la fecha de fin." });
  });

  it.each(["2026-02-30", "2026-13-01", "01/12/2026", "2026-1-5", "mañana"])("refuses the date %s", (date) => {
    expect(errorsOf(form({ startDate: date }))).toEqual({ startDate: "La fecha de inicio no es válida." });
    expect(errorsOf(form({ startDate: "2026-01-01", endDate: date }))).toEqual({
      endDate: "La fecha de fin no es válida.",
    });
  });

  it.each(["0226-12-05", "1999-12-31", "2101-01-01"])("refuses the year of %s, and says so", (date) => {
    // A typo such as "0226" for 2026 would make a drop of the year 226 that sells at once.
    expect(errorsOf(form({ startDate: date }))).toEqual({
      startDate: "La fecha de inicio no es válida: escribe un año de 2000 a 2100.",
    });
    expect(errorsOf(form({ startDate: "2026-01-01", endDate: date }))).toEqual({
      endDate: "La fecha de fin no es válida: escribe un año de 2000 a 2100.",
    });
  });

  it("accepts the first and the last year of the shop's dates", () => {
    const drop = parsed(form({ startDate: "2000-01-01", startTime: "00:00", endDate: "2100-12-31" }));
    expect(drop.startAt.toISOString()).toBe("2000-01-01T06:00:00.000Z");
    expect(drop.endAt.toISOString()).toBe("2101-01-01T02:00:00.000Z");
  });

  it.each(["25:00", "24:00", "10:60", "9:00", "10h", "10:00:61"])("refuses the time %s", (time) => {
    expect(errorsOf(form({ startTime: time }))).toEqual({ startDate: "La fecha de inicio no es válida." });
    expect(errorsOf(form({ endTime: time }))).toEqual({ endDate: "La fecha de fin no es válida." });
  });

  it("the end must come after the start, not at the same minute", () => {
    const end = "La fecha de fin debe ser posterior a la de inicio.";
    expect(errorsOf(form({ endDate: "2026-12-01", endTime: "10:00" }))).toEqual({ endDate: end });
    expect(errorsOf(form({ endDate: "2026-11-30", endTime: "23:00" }))).toEqual({ endDate: end });
    expect(parsed(form({ endDate: "2026-12-01", endTime: "10:01" })).endAt.toISOString()).toBe(
      "2026-12-01T16:01:00.000Z",
    );
  });
});

describe("dropInput: status (edit form)", () => {
  it("is null when the form does not send one (a new drop starts as proximamente)", () => {
    expect(parsed(form()).status).toBeNull();
    expect(parsed(form({ status: "" })).status).toBeNull();
  });

  it("reads the edit form's 'archivado' as 'archivada'", () => {
    expect(parsed(form({ status: "archivado" })).status).toBe("archivada");
    expect(parsed(form({ status: "archivada" })).status).toBe("archivada");
    expect(parsed(form({ status: "activa" })).status).toBe("activa");
    expect(parsed(form({ status: "proximamente" })).status).toBe("proximamente");
  });

  it("refuses a status not on the list", () => {
    expect(errorsOf(form({ status: "otro" }))).toEqual({ status: "Elige un estado de la lista." });
  });
});

describe("dropInput: products", () => {
  it("requires each product's name, up to 120 characters, without control characters", () => {
    expect(productErrors({ name: " " })).toEqual({ "products.0.name": "Escribe el nombre del producto." });
    expect(productErrors({ name: "x".repeat(121) })).toEqual({
      "products.0.name": "Nombre: máximo 120 caracteres.",
    });
    expect(productErrors({ name: "Anillo\u0000" })).toEqual({
      "products.0.name": "Nombre: contiene caracteres no permitidos.",
    });
  });

  it.each([
    ["12,500.00", 1_250_000],
    ["$12500", 1_250_000],
    ["$12,500", 1_250_000],
    ["12500.5", 1_250_050],
    [" 450 ", 45_000],
    ["0.01", 1],
    ["999,999.99", MAX_PRICE_CENTS],
  ])("reads the price %s as %i centavos", (price, cents) => {
    expect(parsed(form({ products: [product({ price })] })).products[0]?.price).toBe(cents);
  });

  it.each(["abc", "-5", "$-5", "12.345", "1e3", "12 500", "12500.", ".5", "0x10", "１２"])(
    "refuses the price %s as not money",
    (price) => {
      expect(productErrors({ price })).toEqual({
        "products.0.price": "Escribe el precio en pesos, p. ej. 12500.00.",
      });
    },
  );

  it.each(["0", "0.00", "1000000.00", "1,000,000", "999999999"])(
    "refuses the price %s as out of range",
    (price) => {
      expect(productErrors({ price })).toEqual({
        "products.0.price": "El precio debe ser mayor a $0 y de hasta $999,999.99.",
      });
    },
  );

  it("caps the price at what one payment can take, far below a 32-bit column", () => {
    expect(MAX_PRICE_CENTS).toBe(99_999_999);
    expect(MAX_PRICE_CENTS).toBeLessThanOrEqual(MAX_CHARGE_CENTS);
    expect(MAX_STOCK).toBeLessThan(DB_INTEGER_MAX);
  });

  it("requires the price", () => {
    expect(productErrors({ price: "" })).toEqual({ "products.0.price": "Escribe el precio." });
  });

  it("takes stock as a whole number of pieces from 0 to MAX_STOCK", () => {
    expect(parsed(form({ products: [product({ stock: "0" })] })).products[0]?.stock).toBe(0);
    expect(parsed(form({ products: [product({ stock: ` ${MAX_STOCK} ` })] })).products[0]?.stock).toBe(
      MAX_STOCK,
    );
    for (const stock of ["1.5", "-1", "tres", "1e3", "+3"]) {
      expect(productErrors({ stock })).toEqual({
        "products.0.stock": "El stock es un número entero de piezas.",
      });
    }
    for (const stock of [String(MAX_STOCK + 1), "99999999999999999999999"]) {
      expect(productErrors({ stock })).toEqual({
        "products.0.stock": "El stock puede ser de hasta 10000 piezas.",
      });
    }
    expect(productErrors({ stock: "" })).toEqual({ "products.0.stock": "Escribe cuántas piezas hay." });
  });

  it("reads the stock the edit form loaded, or null when there is none", () => {
    const loaded = (stockLoaded?: string) =>
      parsed(form({ products: [product({ stockLoaded })] })).products[0]?.stockLoaded;
    expect(loaded(undefined)).toBeNull();
    expect(loaded("")).toBeNull();
    expect(loaded("0")).toBe(0);
    expect(loaded("10")).toBe(10);
    expect(productErrors({ stockLoaded: "-1" })).toHaveProperty(["products.0.stockLoaded"]);
    // Nine digits at most: the difference it makes stays a 32-bit integer on PostgreSQL.
    expect(loaded("999999999")).toBe(999_999_999);
    expect(productErrors({ stockLoaded: "1000000000" })).toEqual({
      "products.0.stockLoaded": "Formulario inválido: recarga la página.",
    });
  });

  it("takes the version the edit form carries (the instant of the last save), or none", () => {
    expect(parsed(form({ version: "2026-11-23T06:00:00.123Z" })).version).toBe("2026-11-23T06:00:00.123Z");
    expect(parsed(form({ version: "" })).version).toBe("");
    for (const version of [
      "ayer",
      "2026-11-23",
      "2026-13-45T99:99:99.999Z",
      "2026-11-23T06:00:00.123Z\u0000",
    ]) {
      expect(errorsOf(form({ version })), version).toEqual({
        version: "Formulario inválido: recarga la página.",
      });
    }
  });

  it("takes only the spec's categorias and materiales, spelled as listed", () => {
    for (const categoria of ["Pulsera", "Collar", "Arete", "Anillo"]) {
      expect(parsed(form({ products: [product({ categoria })] })).products[0]?.categoria).toBe(categoria);
    }
    for (const material of ["Oro amarillo", "Oro rosa", "Oro blanco"]) {
      expect(parsed(form({ products: [product({ material })] })).products[0]?.material).toBe(material);
    }
    for (const categoria of ["anillo", "Reloj", "", undefined]) {
      expect(productErrors({ categoria })).toEqual({ "products.0.categoria": "Elige la categoría." });
    }
    for (const material of ["Plata", "oro rosa", "", undefined]) {
      expect(productErrors({ material })).toEqual({ "products.0.material": "Elige el material." });
    }
  });

  it("limits a product's description to 2000 characters", () => {
    expect(productErrors({ description: "d".repeat(2001) })).toEqual({
      "products.0.description": "Descripción: máximo 2000 caracteres.",
    });
  });

  it(`takes up to ${MAX_EXTRA_IMAGES} extra images per product`, () => {
    const extras = ["e1", "e2", "e3", "e4", "e5"].map(id);
    expect(
      parsed(form({ products: [product({ extraImageIds: extras.slice(0, 4) })] })).products[0]?.extraImageIds,
    ).toEqual(extras.slice(0, 4));
    expect(productErrors({ extraImageIds: extras })).toEqual({
      "products.0.extraImageIds": "Hasta 4 imágenes extra por producto.",
    });
    expect(productErrors({ extraImageIds: [id("e1"), "../x"] })).toEqual({
      "products.0.extraImageIds.1": "Esa imagen no es válida; súbela de nuevo.",
    });
  });

  it("refuses a product id that is not an id", () => {
    expect(productErrors({ id: "x'; drop table" })).toEqual({ "products.0.id": "Producto desconocido." });
    expect(parsed(form({ products: [product({ id: id("prod") })] })).products[0]?.id).toBe(id("prod"));
  });

  it(`takes up to MAX_PRODUCTS (${MAX_PRODUCTS}) products`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => product({ name: `Pieza ${i + 1}` }));
    expect(parsed(form({ products: many(MAX_PRODUCTS) })).products).toHaveLength(MAX_PRODUCTS);
    expect(errorsOf(form({ products: many(MAX_PRODUCTS + 1) }))).toEqual({
      products: "Hasta 60 productos por colección.",
    });
  });

  it("a product without a main image gets the spec's alert, numbered from 1, at its imageId", () => {
    const result = dropInput.safeParse(form({ products: [product(), product({ imageId: "" })] }));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.issues).toHaveLength(1);
    // The issue sits at the product's image; the page reads it numbered through fieldErrors.
    expect(result.error.issues[0]?.path).toEqual(["products", 1, "imageId"]);
    expect(fieldErrors(result.error)).toEqual({
      fields: { "products.1.imageId": "Producto 2 no tiene imagen principal" },
      first: "Producto 2 no tiene imagen principal",
    });
  });

  it("names every product without a main image", () => {
    const { imageId: _, ...noImage } = product();
    expect(errorsOf(form({ products: [noImage, product(), product({ imageId: "  " })] }))).toEqual({
      "products.0.imageId": "Producto 1 no tiene imagen principal",
      "products.2.imageId": "Producto 3 no tiene imagen principal",
    });
  });
});

describe("dropInput: the metal's facts", () => {
  const facts = (over: Record<string, unknown>) => parsed(form({ products: [product(over)] })).products[0];

  it("takes 'Quilates' 10, 14 or 18, or none", () => {
    expect(facts({ karat: "14" })?.karat).toBe(14);
    expect(facts({ karat: "10" })?.karat).toBe(10);
    expect(facts({ karat: "18" })?.karat).toBe(18);
    expect(facts({ karat: "" })?.karat).toBeNull();
    for (const karat of ["22", "24", "9", "14k", "catorce", "14.0"]) {
      expect(productErrors({ karat })).toEqual({
        "products.0.karat": "Quilates: elige 10 k, 14 k o 18 k, o déjalo sin marcar.",
      });
    }
  });

  it("takes 'Peso (g)' in grams with up to two decimals, more than 0 and at most 1000, as milligrams", () => {
    expect(facts({ weight: "2.35" })?.weight).toBe(2350);
    expect(facts({ weight: "2,35" })?.weight).toBe(2350);
    expect(facts({ weight: "1000" })?.weight).toBe(1_000_000);
    expect(facts({ weight: "0.01" })?.weight).toBe(10);
    expect(facts({ weight: "" })?.weight).toBeNull();
    for (const weight of ["abc", "2.355", "-1", "1e2", "2 kg"]) {
      expect(productErrors({ weight }), weight).toEqual({
        "products.0.weight": "Escribe el peso en gramos, por ejemplo 2.35.",
      });
    }
    for (const weight of ["0", "0.00", "1000.01", "5000"]) {
      expect(productErrors({ weight }), weight).toEqual({
        "products.0.weight": "El peso debe ser mayor a 0 g y de hasta 1000 g.",
      });
    }
  });

  it("takes 'Piedras' up to 80 characters; empty or 'Sin piedras' is none", () => {
    expect(facts({ stones: " Zirconia blanca " })?.stones).toBe("Zirconia blanca");
    expect(facts({ stones: "Sin piedras" })?.stones).toBeNull();
    expect(facts({ stones: "" })?.stones).toBeNull();
    expect(facts({ stones: "z".repeat(80) })?.stones).toBe("z".repeat(80));
    expect(productErrors({ stones: "z".repeat(81) })).toEqual({
      "products.0.stones": "Piedras: máximo 80 caracteres.",
    });
    expect(productErrors({ stones: "Perla\u0000" })).toEqual({
      "products.0.stones": "Piedras: contiene caracteres no permitidos.",
    });
  });
});

describe("parsePesos and pesosText", () => {
  it("parsePesos reads money and nothing else", () => {
    expect(parsePesos("12,500.00")).toBe(1_250_000);
    expect(parsePesos("$12500")).toBe(1_250_000);
    expect(parsePesos("12500.5")).toBe(1_250_050);
    expect(parsePesos("0")).toBe(0);
    for (const text of ["", "abc", "-5", "1.234", "1234567890", "$ 5", "5$"])
      expect(parsePesos(text)).toBeNull();
  });

  it("pesosText shows centavos with two decimals, as the price field expects", () => {
    expect(pesosText(1_250_000)).toBe("12500.00");
    expect(pesosText(1_250_050)).toBe("12500.50");
    expect(pesosText(5)).toBe("0.05");
    expect(pesosText(MAX_PRICE_CENTS)).toBe("999999.99");
  });

  it("what pesosText shows reads back to the same centavos, for every price up to $2,000 and the largest ones", () => {
    const bad: number[] = [];
    const check = (cents: number) => {
      if (parsePesos(pesosText(cents)) !== cents) bad.push(cents);
    };
    for (let cents = 0; cents <= 200_000; cents++) check(cents);
    for (let cents = MAX_PRICE_CENTS - 10_000; cents <= MAX_PRICE_CENTS; cents++) check(cents);
    expect(bad).toEqual([]);
  });
});

describe("fieldErrors", () => {
  it("keys errors by dotted path, keeps the first per field and names the first for the alert", () => {
    const result = dropInput.safeParse(
      form({ name: "", products: [product(), product({ price: "abc", stock: "-1", categoria: "x" })] }),
    );
    expect(result.success).toBe(false);
    if (result.success) return;
    const { fields, first } = fieldErrors(result.error);
    expect(fields).toEqual({
      name: "Escribe el nombre de la colección.",
      "products.1.price": "Escribe el precio en pesos, p. ej. 12500.00.",
      "products.1.stock": "El stock es un número entero de piezas.",
      "products.1.categoria": "Elige la categoría.",
    });
    expect(first).toBe("Escribe el nombre de la colección.");
  });

  it("one field with two problems shows the first", () => {
    const result = dropInput.safeParse(form({ products: [product({ stock: "" })] }));
    if (result.success) throw new Error("accepted");
    // An empty stock is both too short and not a number: the owner reads the first.
    expect(result.error.issues.length).toBeGreaterThan(1);
    expect(fieldErrors(result.error).fields).toEqual({ "products.0.stock": "Escribe cuántas piezas hay." });
  });

  it("an error about the whole submission goes under 'form'", () => {
    const result = dropInput.safeParse("not a form");
    if (result.success) throw new Error("accepted");
    expect(Object.keys(fieldErrors(result.error).fields)).toEqual(["form"]);
  });
});

describe("formToDropInput", () => {
  function formData(entries: [string, string | File][]): FormData {
    const data = new FormData();
    for (const [key, value] of entries) data.append(key, value);
    return data;
  }

  it("turns products[n].field names into nested products, extras repeated, in index order", () => {
    const data = formData([
      ["id", DROP],
      ["name", "Mareas"],
      ["startDate", "2026-12-01"],
      ["startTime", "10:00"],
      ["endDate", "2026-12-07"],
      ["endTime", "20:00"],
      ["status", "archivado"],
      // Index 1 first: the order of the fields does not decide the order of the products.
      ["products[1].name", "Collar Ola"],
      ["products[1].price", "12,500.00"],
      ["products[1].stock", "1"],
      ["products[1].categoria", "Collar"],
      ["products[1].material", "Oro blanco"],
      ["products[1].imageId", id("main2")],
      ["products[0].id", id("prod")],
      ["products[0].name", "Anillo Marea"],
      ["products[0].price", "4500"],
      ["products[0].stock", "12"],
      ["products[0].stockLoaded", "10"],
      ["products[0].categoria", "Anillo"],
      ["products[0].material", "Oro rosa"],
      ["products[0].imageId", id("main1")],
      ["products[0].extraImageIds", id("e1")],
      ["products[0].extraImageIds", ""],
      ["products[0].extraImageIds", id("e2")],
    ]);
    const raw = formToDropInput(data);
    expect(raw).toMatchObject({ id: DROP, name: "Mareas", status: "archivado" });
    expect(raw.products).toEqual([
      {
        id: id("prod"),
        name: "Anillo Marea",
        price: "4500",
        stock: "12",
        stockLoaded: "10",
        categoria: "Anillo",
        material: "Oro rosa",
        imageId: id("main1"),
        extraImageIds: [id("e1"), id("e2")],
      },
      {
        name: "Collar Ola",
        price: "12,500.00",
        stock: "1",
        categoria: "Collar",
        material: "Oro blanco",
        imageId: id("main2"),
      },
    ]);
    const drop = parsed(raw);
    expect(drop.status).toBe("archivada");
    expect(drop.products.map((p) => [p.name, p.price, p.stock, p.stockLoaded, p.extraImageIds])).toEqual([
      ["Anillo Marea", 450_000, 12, 10, [id("e1"), id("e2")]],
      ["Collar Ola", 1_250_000, 1, null, []],
    ]);
  });

  it("ignores uploaded files, wherever they are named", () => {
    const photo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "foto.png", { type: "image/png" });
    const raw = formToDropInput(
      formData([
        ["name", "Mareas"],
        ["image", photo],
        ["products[0].imageId", photo],
        ["products[0].extraImageIds", photo],
        ["products[0].name", "Anillo"],
      ]),
    );
    expect(raw).toEqual({ name: "Mareas", products: [{ name: "Anillo" }] });
  });

  it("ignores absurd product indexes and leaves no holes", () => {
    const raw = formToDropInput(
      formData([
        ["products[2].name", "Tercero"],
        ["products[0].name", "Primero"],
        ["products[500].name", "Lejos"],
        ["products[99999999].name", "Muy lejos"],
        ["products[-1].name", "Negativo"],
      ]),
    );
    expect(raw.products).toEqual([{ name: "Primero" }, { name: "Tercero" }]);
    // Names that are not products[n].field stay top-level keys, which the schema drops.
    expect(Object.keys(raw).filter((k) => k.startsWith("products["))).toEqual([
      "products[99999999].name",
      "products[-1].name",
    ]);
    expect(JSON.stringify(parsed({ ...form(), ...raw, products: form().products }))).not.toContain("lejos");
  });

  it("keeps one product past the limit, so the schema can say there are too many", () => {
    const entries: [string, string][] = [];
    for (let i = 0; i < MAX_PRODUCTS + 5; i++) {
      for (const [field, value] of Object.entries(product({ name: `Pieza ${i + 1}` }))) {
        entries.push([`products[${i}].${field}`, String(value)]);
      }
    }
    const raw = formToDropInput(formData(entries));
    expect(raw.products).toHaveLength(MAX_PRODUCTS + 1);
    expect(errorsOf({ ...form(), products: raw.products })).toEqual({
      products: "Hasta 60 productos por colección.",
    });
  });

  it("a repeated field keeps its first value", () => {
    const raw = formToDropInput(
      formData([
        ["name", "Primero"],
        ["name", "Segundo"],
        ["products[0].price", "100"],
        ["products[0].price", "1"],
      ]),
    );
    expect(raw).toEqual({ name: "Primero", products: [{ price: "100" }] });
  });

  it("field names like __proto__ touch no prototype", () => {
    const raw = formToDropInput(
      formData([
        ["__proto__", "x"],
        ["constructor", "y"],
        ["products[0].__proto__", "z"],
        ["products[0].name", "Anillo"],
      ]),
    );
    expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
    expect(raw.products).toEqual([{ name: "Anillo" }]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe("dropInput: drop-day rules", () => {
  it("'Máximo por persona' empty is no limit; a whole number from 1 to 100 is the limit", () => {
    expect(parsed(form()).maxPerOrder).toBeNull();
    expect(parsed(form({ maxPerOrder: "" })).maxPerOrder).toBeNull();
    expect(parsed(form({ maxPerOrder: " 2 " })).maxPerOrder).toBe(2);
    expect(parsed(form({ maxPerOrder: "100" })).maxPerOrder).toBe(100);
    for (const bad of ["0", "101", "1.5", "-1", "dos", "1e2"]) {
      expect(errorsOf(form({ maxPerOrder: bad })), bad).toEqual({
        maxPerOrder: "Máximo por persona: escribe un número de 1 a 100, o déjalo vacío para no limitar.",
      });
    }
  });

  it("the hold is 30 minutes unless the owner sets 10 to 30", () => {
    expect(parsed(form()).holdMinutes).toBe(30);
    expect(parsed(form({ holdMinutes: "10" })).holdMinutes).toBe(10);
    expect(parsed(form({ holdMinutes: "15" })).holdMinutes).toBe(15);
    for (const bad of ["9", "31", "0", "diez", "12.5"]) {
      expect(errorsOf(form({ holdMinutes: bad })), bad).toEqual({
        holdMinutes: "Apartado: escribe de 10 a 30 minutos.",
      });
    }
  });

  it("the opening's rules default to a 10-second draw, an hour, 10-minute holds and 2 pieces per connection", () => {
    expect(parsed(form())).toMatchObject({
      lotterySeconds: 10,
      openingMinutes: 60,
      openingHoldMinutes: 10,
      openingHoldsPerAddress: 2,
    });
    expect(
      parsed(
        form({
          lotterySeconds: "0",
          openingMinutes: "120",
          openingHoldMinutes: "5",
          openingHoldsPerAddress: "4",
        }),
      ),
    ).toMatchObject({
      lotterySeconds: 0,
      openingMinutes: 120,
      openingHoldMinutes: 5,
      openingHoldsPerAddress: 4,
    });
    expect(errorsOf(form({ lotterySeconds: "121" }))).toEqual({
      lotterySeconds: "Sorteo al abrir: escribe de 0 a 120 segundos.",
    });
    expect(errorsOf(form({ openingHoldMinutes: "4" }))).toEqual({
      openingHoldMinutes: "Apartado en la apertura: escribe de 5 a 30 minutos.",
    });
    expect(errorsOf(form({ openingHoldsPerAddress: "0" }))).toEqual({
      openingHoldsPerAddress: "Piezas por conexión en la apertura: escribe de 1 a 100 piezas.",
    });
    expect(errorsOf(form({ openingMinutes: "una hora" }))).toEqual({
      openingMinutes: "Duración de la apertura: escribe de 0 a 1440 minutos.",
    });
  });

  it("'solo tarjeta' is the first 2 hours unless the owner sets 0 to 72", () => {
    expect(parsed(form()).cardOnlyHours).toBe(2);
    expect(parsed(form({ cardOnlyHours: "0" })).cardOnlyHours).toBe(0);
    expect(parsed(form({ cardOnlyHours: "24" })).cardOnlyHours).toBe(24);
    for (const bad of ["73", "-1", "dos"]) {
      expect(errorsOf(form({ cardOnlyHours: bad })), bad).toEqual({
        cardOnlyHours: "Solo tarjeta: escribe de 0 a 72 horas.",
      });
    }
  });
});
