/**
 * The demo payment page's shipping choice (decision 43): one radio button per option, each with
 * its price ('Gratis' when free) and the total it makes; the first starts selected, as on Stripe's page.
 */
export function ShippingChoiceFieldset({
  name,
  options,
  error,
}: {
  name: string;
  options: { method: string; text: string; price: string; total: string }[];
  error?: string;
}) {
  if (options.length === 0) return null;
  return (
    <fieldset className="space-y-2" aria-describedby={error ? "shipping-error" : undefined}>
      <legend className="text-sm font-medium">Envío</legend>
      {options.map((option, i) => (
        <label key={option.method} className="flex items-center gap-3">
          <input
            type="radio"
            name={name}
            value={option.method}
            defaultChecked={i === 0}
            className="size-5 shrink-0 accent-gold-700"
          />
          <span>
            {option.text}: {option.price}
            <span className="block text-sm text-ink/70">Total con envío {option.total}</span>
          </span>
        </label>
      ))}
      {error && (
        <p id="shipping-error" className="text-sm text-red-800">
          {error}
        </p>
      )}
    </fieldset>
  );
}
