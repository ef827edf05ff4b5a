import { describe, expect, it } from "vitest";
import { MAX_STOCK } from "~/db/taxonomy";
import { dropInput } from "./drop-input";
import { fieldErrors, formToDropInput } from "./form-reading";
import { MAX_OPTION_VALUES } from "./option-input";

/** The create form as the page posts it, with one product whose fields `product` adds or replaces. */
function posted(product: [string, string][]): FormData {
  const form = new FormData();
  const fields: [string, string][] = [
    ["id", "drop000000000000"],
    ["name", "Mareas"],
    ["startDate", "2026-12-01"],
    ["endDate", "2026-12-07"],
    ["products[0].name", "Anillo Marea"],
    ["products[0].price", "4500"],
    ["products[0].categoria", "Anillo"],
    ["products[0].material", "Oro rosa"],
    ["products[0].imageId", "main000000000000"],
    ...product,
  ];
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

/** Sizes as the form posts them: `products[0].options[j].value` and `.stock`. */
function sizes(values: [string, string][], name = "Talla"): [string, string][] {
  return [
    ["products[0].optionName", name],
    ...values.flatMap(([value, stock], j): [string, string][] => [
      [`products[0].options[${j}].value`, value],
      [`products[0].options[${j}].stock`, stock],
    ]),
  ];
}

const parse = (form: FormData) => dropInput.safeParse(formToDropInput(form));
function product(form: FormData) {
  const result = parse(form);
  if (!result.success) throw new Error(JSON.stringify(fieldErrors(result.error).fields));
  return result.data.products[0];
}
function errors(form: FormData): Record<string, string> {
  const result = parse(form);
  return result.success ? {} : fieldErrors(result.error).fields;
}

describe("the drop form's sizes", () => {
  it("reads a ring in sizes 5 to 8: each size with its stock, the product's stock their sum", () => {
    const ring = product(
      posted(
        sizes([
          ["5", "1"],
          ["6.5", "2"],
          [" 7 ", "3"],
          ["8", "4"],
        ]),
      ),
    );
    expect(ring?.stock).toBe(10);
    expect(ring?.option).toEqual({
      name: "Talla",
      values: [
        { id: "", value: "5", stock: 1, stockLoaded: null },
        { id: "", value: "6.5", stock: 2, stockLoaded: null },
        { id: "", value: "7", stock: 3, stockLoaded: null },
        { id: "", value: "8", stock: 4, stockLoaded: null },
      ],
    });
  });

  it("sets aside a stock sent for a sized product, and sizes sent for one without", () => {
    const sized = product(posted([["products[0].stock", "99"], ...sizes([["45 cm", "2"]], "Largo")]));
    expect(sized).toMatchObject({
      stock: 2,
      option: { name: "Largo", values: [{ value: "45 cm", stock: 2 }] },
    });
    const plain = product(
      posted([
        ["products[0].stock", "3"],
        ["products[0].optionName", ""],
        ["products[0].options[0].value", ""],
        ["products[0].options[0].stock", "x"],
      ]),
    );
    expect(plain).toMatchObject({ stock: 3, option: null });
  });

  it("reads the edit form's ids and loaded stock of each size, in the form's order, skipping holes", () => {
    const form = posted([
      ["products[0].optionName", "Talla"],
      ["products[0].options[3].value", "8"],
      ["products[0].options[3].stock", "4"],
      ["products[0].options[0].id", "size700000000000"],
      ["products[0].options[0].value", "7"],
      ["products[0].options[0].stock", "5"],
      ["products[0].options[0].stockLoaded", "2"],
    ]);
    expect(product(form)?.option?.values).toEqual([
      { id: "size700000000000", value: "7", stock: 5, stockLoaded: 2 },
      { id: "", value: "8", stock: 4, stockLoaded: null },
    ]);
    expect(errors(posted([...sizes([["7", "1"]]), ["products[0].options[0].stockLoaded", "-1"]]))).toEqual({
      "products.0.options.0.stockLoaded": "Formulario inválido: recarga la página.",
    });
    expect(errors(posted([...sizes([["7", "1"]]), ["products[0].options[0].id", "../x"]]))).toEqual({
      "products.0.options.0.id": "Formulario inválido: recarga la página.",
    });
  });

  it("says in Spanish, beside the field, what is wrong with each size", () => {
    expect(
      errors(
        posted(
          sizes([
            ["", "1"],
            ["7", ""],
            ["8", "1.5"],
            ["9", "-2"],
            ["7", "1"],
            ["10", String(MAX_STOCK + 1)],
            ["x".repeat(21), "1"],
            ["11\u0000", "1"],
          ]),
        ),
      ),
    ).toEqual({
      "products.0.options.0.value": "Escribe la talla.",
      "products.0.options.1.stock": "Escribe cuántas piezas hay de la talla 7.",
      "products.0.options.2.stock": "El stock de la talla 8 es un número entero de piezas.",
      "products.0.options.3.stock": "El stock de la talla 9 es un número entero de piezas.",
      "products.0.options.4.value": "La talla 7 está dos veces: escribe cada una una vez.",
      "products.0.options.5.stock": `El stock de la talla 10 puede ser de hasta ${MAX_STOCK} piezas.`,
      "products.0.options.6.value": "Talla: máximo 20 caracteres.",
      "products.0.options.7.value": "Talla: contiene caracteres no permitidos.",
    });
    // Lengths read as lengths; the same value in other capitals is the same value.
    expect(
      errors(
        posted(
          sizes(
            [
              ["45 cm", "1"],
              ["45 CM", "1"],
              ["", ""],
            ],
            "Largo",
          ),
        ),
      ),
    ).toEqual({
      "products.0.options.1.value": "El largo 45 CM está dos veces: escribe cada uno una vez.",
      "products.0.options.2.value": "Escribe el largo.",
      "products.0.options.2.stock": "Escribe cuántas piezas hay de este largo.",
    });
  });

  it("wants at least one size and at most 30, adding up to at most MAX_STOCK pieces", () => {
    expect(errors(posted([["products[0].optionName", "Talla"]]))).toEqual({
      "products.0.options": "Agrega al menos una talla.",
    });
    const many = Array.from({ length: MAX_OPTION_VALUES + 1 }, (_, j): [string, string] => [String(j), "1"]);
    expect(errors(posted(sizes(many)))).toEqual({ "products.0.options": "Hasta 30 tallas por producto." });
    expect(product(posted(sizes(many.slice(0, MAX_OPTION_VALUES))))?.stock).toBe(MAX_OPTION_VALUES);
    // A form with hundreds of sizes is read no further than one past the limit.
    const huge = Array.from({ length: 200 }, (_, j): [string, string] => [String(j), "1"]);
    expect(formToDropInput(posted(sizes(huge)))).toMatchObject({
      products: [{ options: expect.objectContaining({ length: MAX_OPTION_VALUES + 1 }) }],
    });
    expect(
      errors(
        posted(
          sizes([
            ["7", String(MAX_STOCK)],
            ["8", "1"],
          ]),
        ),
      ),
    ).toEqual({ "products.0.options": `La suma de las tallas puede ser de hasta ${MAX_STOCK} piezas.` });
    expect(errors(posted([["products[0].optionName", "Color"]]))).toEqual({
      "products.0.optionName": "Elige Sin tallas, Talla o Largo.",
    });
  });
});
