import {
  DEFAULT_BRAND_COLOR,
  type GeneralSettings,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  updateGeneralBody,
} from "@cove/contract/settings.ts";
import { type ChangeEvent, useId, useMemo } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "../../../components/ui/button.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { FormCard } from "../../../components/ui/form-card.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { describedBy, FieldShell, inputClasses, TextField } from "../../../components/ui/text-field.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useUpdateGeneral } from "../api/settings.api.ts";

export const SETTINGS_SAVED = "Settings saved";
export const SETTINGS_FAILED = "Failed to save settings";
/** The fields that show a message of their own. */
const FIELDS = ["name", "slug", "brand_color", "logo"] as const;

const general = updateGeneralBody.shape;
/** The contract's fields, all present; logo: undefined unchanged, null removed, a data URL a new logo. */
const generalForm = z.object({
  name: general.name.unwrap(),
  slug: general.slug.unwrap(),
  timezone: general.timezone.unwrap(),
  brand_color: general.brand_color.unwrap(),
  logo: general.logo,
});

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
  const form = useContractForm(generalForm, {
    name: settings.name,
    slug: settings.slug,
    timezone: settings.timezone,
    brand_color: settings.brand_color || DEFAULT_BRAND_COLOR,
    logo: undefined,
  });
  const {
    register,
    watch,
    setValue,
    setError,
    clearErrors,
    formState: { errors: fieldErrors },
  } = form;
  const errors = {
    name: fieldErrors.name?.message,
    slug: fieldErrors.slug?.message,
    brand_color: fieldErrors.brand_color?.message,
    logo: fieldErrors.logo?.message,
  };
  const zones = useMemo(() => timeZones(settings.timezone), [settings.timezone]);
  const logoValue = watch("logo");
  const color = watch("brand_color");
  const preview = logoValue === undefined ? settings.logo_url : logoValue;
  const origin = settings.help_center_url.slice(0, settings.help_center_url.length - settings.slug.length);
  const slugInput = register("slug");

  async function onLogo(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!(LOGO_TYPES as readonly string[]).includes(file.type)) {
      setError("logo", { message: "The logo must be a PNG, JPEG or WebP image" });
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      setError("logo", { message: `The logo must be at most ${LOGO_MAX_BYTES / 1024} KB` });
      return;
    }
    clearErrors("logo");
    setValue("logo", await readFile(file), { shouldDirty: true });
  }

  // One message per failure: beside the field it is about, else the toast (the spec's text, the server's beneath).
  const onSubmit = form.submit(
    FIELDS,
    async (values) => {
      await update.mutateAsync({
        name: values.name,
        timezone: values.timezone,
        brand_color: values.brand_color,
        ...(values.slug !== settings.slug ? { slug: values.slug } : {}),
        ...(values.logo !== undefined ? { logo: values.logo } : {}),
      });
      setValue("logo", undefined);
      toast.success(SETTINGS_SAVED);
      if (values.name !== settings.name) await refreshUser();
    },
    (error) => toastError(error, SETTINGS_FAILED),
  );

  return (
    <FormCard onSubmit={onSubmit}>
      <TextField label="Organization name" maxLength={120} required error={errors.name} {...register("name")} />
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
            {...slugInput}
            onChange={(e) => {
              e.target.value = e.target.value.toLowerCase();
              return slugInput.onChange(e);
            }}
            maxLength={60}
            aria-invalid={errors.slug ? true : undefined}
            aria-describedby={describedBy(`${id}-slug`, "hint", errors.slug)}
            className={`${inputClasses} rounded-l-none`}
          />
        </div>
      </FieldShell>
      <SelectField
        label="Time zone"
        {...register("timezone")}
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
            onChange={(e) => setValue("brand_color", e.target.value, { shouldDirty: true })}
            className="h-10 w-14 cursor-pointer rounded-md border border-slate-300 bg-white"
          />
          <input
            id={`${id}-color`}
            maxLength={7}
            aria-invalid={errors.brand_color ? true : undefined}
            aria-describedby={describedBy(`${id}-color`, "hint", errors.brand_color)}
            className={`${inputClasses} w-32 font-mono`}
            {...register("brand_color")}
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
            <Button variant="ghost" size="sm" onClick={() => setValue("logo", null, { shouldDirty: true })}>
              Remove logo
            </Button>
          )}
        </div>
      </FieldShell>
      <FormActions pending={update.isPending}>Save changes</FormActions>
    </FormCard>
  );
}
