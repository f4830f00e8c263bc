import { AI_GREETING_MAX, AI_TONES, type AiSettings, type AiTone, aiGreeting } from "@cove/contract/ai.ts";
import { zodResolver } from "@hookform/resolvers/zod";
import { clsx } from "clsx";
import { ChevronDown } from "lucide-react";
import { useEffect, useId } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "../../../components/ui/button.tsx";
import { describedBy, FieldShell, inputClasses } from "../../../components/ui/text-field.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { useUpdateAiSettings } from "../api/ai.api.ts";

export const SETTINGS_SAVED = "AI assistant settings saved";
export const SETTINGS_FAILED = "Failed to save AI assistant settings";

const TONE_LABELS: Record<AiTone, string> = {
  friendly: "Friendly",
  professional: "Professional",
  concise: "Concise",
};

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
  } = useForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: toForm(settings) });
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
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
      className="space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div>
        <h2 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
          Settings
        </h2>
        {!canEdit && <p className="mt-1 text-xs text-slate-500">Only an administrator can change these settings.</p>}
      </div>
      <fieldset disabled={!canEdit} className="space-y-5">
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
            {...register("enabled")}
          />
          <span>
            <span className="block text-sm font-medium text-slate-800">Answer customers automatically</span>
            <span className="block text-xs text-slate-500">
              {enabled
                ? "On: the assistant answers first and hands off when unsure."
                : "Off: every question goes straight to your team."}
            </span>
          </span>
        </label>

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

        <FieldShell id={`${id}-greeting`} label="Greeting" error={errors.greeting?.message}>
          <textarea
            id={`${id}-greeting`}
            rows={3}
            maxLength={AI_GREETING_MAX}
            aria-invalid={errors.greeting ? true : undefined}
            aria-describedby={describedBy(`${id}-greeting`, undefined, errors.greeting?.message)}
            className={clsx(inputClasses, "resize-y")}
            {...register("greeting")}
          />
        </FieldShell>

        <FieldShell id={`${id}-tone`} label="Tone">
          <div className="relative">
            <select id={`${id}-tone`} className={clsx(inputClasses, "appearance-none pr-9")} {...register("tone")}>
              {AI_TONES.map((tone) => (
                <option key={tone} value={tone}>
                  {TONE_LABELS[tone]}
                </option>
              ))}
            </select>
            <ChevronDown
              className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500"
              aria-hidden="true"
            />
          </div>
        </FieldShell>
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
            {...register("learn")}
          />
          <span>
            <span className="block text-sm font-medium text-slate-800">
              Accept questions your team answered automatically
            </span>
            <span className="block text-xs text-slate-500">
              When an agent answers a question with a link to an article, the question becomes one of that article's
              example questions at once, without waiting for review here.
            </span>
          </span>
        </label>
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
            {...register("adjust")}
          />
          <span>
            <span className="block text-sm font-medium text-slate-800">Adjust the threshold automatically</span>
            <span className="block text-xs text-slate-500">
              Once 50 of your customers' questions are labelled, the threshold proposed under "Your own hand-off
              threshold" is applied on its own, and follows each new label.
            </span>
          </span>
        </label>
      </fieldset>
      {canEdit && (
        <div className="flex justify-end">
          <Button type="submit" pending={isSubmitting} disabled={!isDirty}>
            Save settings
          </Button>
        </div>
      )}
    </form>
  );
}
