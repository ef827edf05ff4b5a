import { LENGTHS, MEASURE_LENGTH_STEPS, MEASURE_RING_STEPS, RING_SIZES } from "~/catalogue/size-guide";
import type { OptionName } from "~/db/taxonomy";

/** The guide's contents: the table of sizes (or lengths) and how to measure at home. */
export default function SizeGuideBody({ option }: { option: OptionName }) {
  return option === "Talla" ? <RingGuide /> : <LengthGuide />;
}

function RingGuide() {
  return (
    <>
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">Tallas de anillo con su diámetro y circunferencia interiores</caption>
        <thead>
          <tr className="border-b border-ink/20 text-left">
            <th scope="col" className="py-1.5">
              Talla
            </th>
            <th scope="col" className="py-1.5">
              Diámetro interior
            </th>
            <th scope="col" className="py-1.5">
              Circunferencia
            </th>
          </tr>
        </thead>
        <tbody>
          {RING_SIZES.map((row) => (
            <tr key={row.size} className="border-b border-sand">
              <th scope="row" className="py-1 text-left font-medium">
                {row.size}
              </th>
              <td className="py-1">{row.diameterMm} mm</td>
              <td className="py-1">{row.circumferenceMm} mm</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Steps title="Cómo medir tu talla en casa" steps={MEASURE_RING_STEPS} />
    </>
  );
}

function LengthGuide() {
  return (
    <>
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">Largos de collar y pulsera, y dónde caen</caption>
        <thead>
          <tr className="border-b border-ink/20 text-left">
            <th scope="col" className="py-1.5">
              Largo
            </th>
            <th scope="col" className="py-1.5">
              Dónde cae
            </th>
          </tr>
        </thead>
        <tbody>
          {LENGTHS.map((row) => (
            <tr key={row.length} className="border-b border-sand">
              <th scope="row" className="py-1 text-left font-medium">
                {row.length}
              </th>
              <td className="py-1">{row.where}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Steps title="Cómo elegir el largo" steps={MEASURE_LENGTH_STEPS} />
    </>
  );
}

function Steps({ title, steps }: { title: string; steps: readonly string[] }) {
  return (
    <>
      <h3 className="mt-5 font-medium">{title}</h3>
      <ol className="mt-2 list-decimal space-y-1.5 pl-5 text-sm text-ink/85">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </>
  );
}
