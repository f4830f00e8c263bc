import { AI_GREETING_MAX, AI_TONES, type AiSettings, type AiTone, aiGreeting } from "@cove/contract/ai.ts";
import { useEffect, useId } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { CheckboxField } from "../../../components/ui/checkbox-field.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { FormCard } from "../../../components/ui/form-card.tsx";
import { SelectField, type SelectOption } from "../../../components/ui/select-field.tsx";
import { FieldShell, TextAreaField } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useUpdateAiSettings } from "../api/ai.api.ts";

export const SETTINGS_SAVED = "AI assistant settings saved";
export const SETTINGS_FAILED = "Failed to save AI assistant settings";

const TONE_LABELS: Record<AiTone, string> = {
  friendly: "Friendly",
  professional: "Professional",
  concise: "Concise",
};
const toneOptions: SelectOption[] = AI_TONES.map((tone) => ({ value: tone, label: TONE_LABELS[tone] }));

const formSchema = z.object({
  enabled: z.boolean(),
  /** Percent, as the slider shows it; the API takes 0..1. */
  threshold: z.number().min(0).max(100),
  greeting: aiGreeting,
  tone: z.enum(AI_TONES),
  learn: z.boolean(),
  adjust: z.boolean(),
});
type FormValues = z.infer<typeof formSchema>;

const toForm = (s: AiSettings): FormValues => ({
  enabled: s.enabled,
  threshold: Math.round(s.handoff_threshold * 100),
  greeting: s.greeting,
  tone: s.tone,
  learn: s.learn_automatically,
  adjust: s.threshold_automatic,
});

/**
 * On/off, the hand-off threshold, the greeting, the tone, and what the assistant learns on its own (accepting the
 * team's questions, adjusting the threshold). Administrators change them; agents see them.
 */
export function AssistantSettingsForm({ settings, canEdit }: { settings: AiSettings; canEdit: boolean }) {
  const id = useId();
  const update = useUpdateAiSettings();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useContractForm(formSchema, toForm(settings));
  useEffect(() => reset(toForm(settings)), [settings, reset]);
  const threshold = watch("threshold");
  const enabled = watch("enabled");

  const onSubmit = handleSubmit(async (values) => {
    try {
      await update.mutateAsync({
        enabled: values.enabled,
        handoff_threshold: values.threshold / 100,
        greeting: values.greeting,
        tone: values.tone,
        learn_automatically: values.learn,
        threshold_automatic: values.adjust,
      });
      toast.success(SETTINGS_SAVED);
    } catch (error) {
      toastError(error, SETTINGS_FAILED);
    }
  });

  return (
    <FormCard onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
          Settings
        </h2>
        {!canEdit && <p className="mt-1 text-xs text-slate-500">Only an administrator can change these settings.</p>}
      </div>
      <fieldset disabled={!canEdit} className="space-y-5">
        <CheckboxField
          label="Answer customers automatically"
          hint={
            enabled
              ? "On: the assistant answers first and hands off when unsure."
              : "Off: every question goes straight to your team."
          }
          {...register("enabled")}
        />

        <FieldShell
          id={`${id}-threshold`}
          label={`Hand-off below ${threshold}% confidence`}
          hint="Below this confidence the assistant hands the conversation to your team. Higher means fewer wrong answers and more hand-offs; 50% hands off whenever an answer is more likely wrong than right."
        >
          <input
            id={`${id}-threshold`}
            type="range"
            min={0}
            max={100}
            step={5}
            aria-describedby={`${id}-threshold-hint`}
            aria-valuetext={`${threshold}%`}
            className="w-full accent-indigo-600"
            {...register("threshold", { valueAsNumber: true })}
          />
        </FieldShell>

        <TextAreaField
          id={`${id}-greeting`}
          label="Greeting"
          error={errors.greeting?.message}
          rows={3}
          maxLength={AI_GREETING_MAX}
          className="resize-y"
          {...register("greeting")}
        />

        <SelectField id={`${id}-tone`} label="Tone" options={toneOptions} {...register("tone")} />
        <CheckboxField
          label="Accept questions your team answered automatically"
          hint="When an agent answers a question with a link to an article, the question becomes one of that article's example questions at once, without waiting for review here."
          {...register("learn")}
        />
        <CheckboxField
          label="Adjust the threshold automatically"
          hint={
            'Once 50 of your customers\' questions are labelled, the threshold proposed under "Your own hand-off threshold" is applied on its own, and follows each new label.'
          }
          {...register("adjust")}
        />
      </fieldset>
      {canEdit && (
        <FormActions pending={isSubmitting} disabled={!isDirty}>
          Save settings
        </FormActions>
      )}
    </FormCard>
  );
}
