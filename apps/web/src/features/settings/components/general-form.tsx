import { DEFAULT_BRAND_COLOR, type GeneralSettings, LOGO_MAX_BYTES, LOGO_TYPES } from "@cove/contract/settings.ts";
import { type ChangeEvent, type FormEvent, useId, useMemo, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { describedBy, FieldShell, inputClasses, TextField } from "../../../components/ui/text-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useAuth } from "../../../lib/auth.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useUpdateGeneral } from "../api/settings.api.ts";

export const SETTINGS_SAVED = "Settings saved";
export const SETTINGS_FAILED = "Failed to save settings";
/** The fields that show a message of their own. */
const FIELDS = ["name", "slug", "brand_color", "logo"] as const;

function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];
  return all.includes(current) ? all : [current, ...all];
}

const readFile = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error("The file could not be read"));
    reader.readAsDataURL(file);
  });

/** Settings > General: the organization's name, help center address, time zone, logo and brand colour. */
export function GeneralForm({ settings }: { settings: GeneralSettings }) {
  const id = useId();
  const update = useUpdateGeneral();
  const { refreshUser } = useAuth();
  const [name, setName] = useState(settings.name);
  const [slug, setSlug] = useState(settings.slug);
  const [timezone, setTimezone] = useState(settings.timezone);
  const [color, setColor] = useState(settings.brand_color || DEFAULT_BRAND_COLOR);
  // undefined: unchanged; null: removed; a data URL: a new logo.
  const [logo, setLogo] = useState<string | null | undefined>(undefined);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const zones = useMemo(() => timeZones(settings.timezone), [settings.timezone]);
  const preview = logo === undefined ? settings.logo_url : logo;
  const origin = settings.help_center_url.slice(0, settings.help_center_url.length - settings.slug.length);

  async function onLogo(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!(LOGO_TYPES as readonly string[]).includes(file.type)) {
      setErrors((e) => ({ ...e, logo: "The logo must be a PNG, JPEG or WebP image" }));
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      setErrors((e) => ({ ...e, logo: `The logo must be at most ${LOGO_MAX_BYTES / 1024} KB` }));
      return;
    }
    setErrors(({ logo: _, ...rest }) => rest);
    setLogo(await readFile(file));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    try {
      await update.mutateAsync({
        name,
        timezone,
        brand_color: color,
        ...(slug !== settings.slug ? { slug } : {}),
        ...(logo !== undefined ? { logo } : {}),
      });
      setLogo(undefined);
      toast.success(SETTINGS_SAVED);
      if (name !== settings.name) await refreshUser();
    } catch (error) {
      // One message per failure: beside the field it is about, else the toast (the spec's text, the server's beneath).
      const onFields =
        error instanceof ApiError ? error.details.filter((d) => (FIELDS as readonly string[]).includes(d.path)) : [];
      if (onFields.length > 0) setErrors(Object.fromEntries(onFields.map((d) => [d.path, d.message])));
      else toastError(error, SETTINGS_FAILED);
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <TextField
        label="Organization name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={120}
        required
        error={errors.name}
      />
      <FieldShell
        id={`${id}-slug`}
        label="Help center address"
        hint="Letters, digits and hyphens. Changing it changes your help center's links."
        error={errors.slug}
      >
        <div className="flex rounded-md shadow-sm">
          <span className="inline-flex items-center rounded-l-md border border-r-0 border-slate-300 bg-slate-50 px-3 text-sm text-slate-500">
            {origin}
          </span>
          <input
            id={`${id}-slug`}
            value={slug}
            onChange={(e) => setSlug(e.target.value.toLowerCase())}
            maxLength={60}
            aria-invalid={errors.slug ? true : undefined}
            aria-describedby={describedBy(`${id}-slug`, "hint", errors.slug)}
            className={`${inputClasses} rounded-l-none`}
          />
        </div>
      </FieldShell>
      <SelectField
        label="Time zone"
        value={timezone}
        onChange={(e) => setTimezone(e.target.value)}
        options={zones.map((z) => ({ value: z, label: z.replaceAll("_", " ") }))}
        hint="Used for “today” on the dashboard, the monthly ticket count and dates in mail."
      />
      <FieldShell
        id={`${id}-color`}
        label="Brand colour"
        hint="Your help center's header and links; the chat widget and mail later."
        error={errors.brand_color}
      >
        <div className="flex items-center gap-3">
          <input
            type="color"
            aria-label="Pick a brand colour"
            value={/^#[0-9a-f]{6}$/i.test(color) ? color : DEFAULT_BRAND_COLOR}
            onChange={(e) => setColor(e.target.value)}
            className="h-10 w-14 cursor-pointer rounded-md border border-slate-300 bg-white"
          />
          <input
            id={`${id}-color`}
            value={color}
            onChange={(e) => setColor(e.target.value)}
            maxLength={7}
            aria-invalid={errors.brand_color ? true : undefined}
            aria-describedby={describedBy(`${id}-color`, "hint", errors.brand_color)}
            className={`${inputClasses} w-32 font-mono`}
          />
        </div>
      </FieldShell>
      <FieldShell
        id={`${id}-logo`}
        label="Logo"
        hint="PNG, JPEG or WebP, at most 200 KB. Shown on your help center."
        error={errors.logo}
      >
        <div className="flex flex-wrap items-center gap-3">
          <div className="flex h-14 w-28 items-center justify-center rounded-md border border-dashed border-slate-300 bg-slate-50">
            {preview ? (
              <img src={preview} alt="Your logo" className="max-h-12 max-w-24 object-contain" />
            ) : (
              <span className="text-xs text-slate-500">No logo</span>
            )}
          </div>
          <input id={`${id}-logo`} type="file" accept={LOGO_TYPES.join(",")} onChange={onLogo} className="text-sm" />
          {preview && (
            <Button variant="ghost" size="sm" onClick={() => setLogo(null)}>
              Remove logo
            </Button>
          )}
        </div>
      </FieldShell>
      <div className="flex justify-end">
        <Button type="submit" pending={update.isPending}>
          Save changes
        </Button>
      </div>
    </form>
  );
}
