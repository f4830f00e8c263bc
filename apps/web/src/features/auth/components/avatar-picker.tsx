import { AVATAR_MAX_BYTES, AVATAR_SIZE_PX } from "@cove/contract/constants.ts";
import { ImageUp, Trash2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { toastError } from "../../../lib/toast-error.ts";

/**
 * Scales the chosen picture down to a small square in the browser (centre crop), so what travels and is stored is a
 * few kilobytes whatever the camera produced. The server checks the bytes again.
 */
async function toSquareDataUrl(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const side = Math.min(bitmap.width, bitmap.height);
  const canvas = document.createElement("canvas");
  canvas.width = AVATAR_SIZE_PX;
  canvas.height = AVATAR_SIZE_PX;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("This browser cannot resize pictures.");
  context.drawImage(
    bitmap,
    (bitmap.width - side) / 2,
    (bitmap.height - side) / 2,
    side,
    side,
    0,
    0,
    AVATAR_SIZE_PX,
    AVATAR_SIZE_PX,
  );
  bitmap.close();
  return canvas.toDataURL("image/jpeg", 0.85);
}

export function AvatarPicker() {
  const { user, updateProfile } = useAuth();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [saving, setSaving] = useState(false);

  async function save(avatarUrl: string | null, success: string) {
    setSaving(true);
    try {
      await updateProfile({ avatarUrl: avatarUrl ?? "" });
      toast.success(success);
    } catch (error) {
      toastError(error, "Profile update failed");
    } finally {
      setSaving(false);
    }
  }

  async function onPick(file: File | undefined) {
    if (input.current) input.current.value = "";
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      toastError(null, "Profile update failed", "Choose a picture file (PNG, JPEG or WebP).");
      return;
    }
    let dataUrl: string;
    try {
      dataUrl = await toSquareDataUrl(file);
    } catch {
      toastError(null, "Profile update failed", "This picture could not be read. Try another one.");
      return;
    }
    if (dataUrl.length > (AVATAR_MAX_BYTES * 4) / 3) {
      toastError(null, "Profile update failed", "This picture is too large, even scaled down.");
      return;
    }
    await save(dataUrl, "Profile picture updated");
  }

  return (
    <div className="flex flex-wrap items-center gap-4">
      <Avatar url={user?.avatarUrl ?? null} size="lg" />
      <div className="space-y-2">
        <div className="flex flex-wrap gap-2">
          <input
            ref={input}
            id={inputId}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            className="sr-only"
            onChange={(e) => void onPick(e.target.files?.[0])}
          />
          <Button variant="secondary" size="sm" pending={saving} onClick={() => input.current?.click()}>
            {!saving && <ImageUp className="size-4" aria-hidden="true" />}
            {user?.avatarUrl ? "Change picture" : "Upload picture"}
          </Button>
          {user?.avatarUrl && (
            <Button
              variant="ghost"
              size="sm"
              disabled={saving}
              onClick={() => void save(null, "Profile picture removed")}
            >
              <Trash2 className="size-4" aria-hidden="true" />
              Remove
            </Button>
          )}
        </div>
        <label htmlFor={inputId} className="block text-xs text-slate-500">
          A PNG, JPEG or WebP picture; it is cropped to a square.
        </label>
      </div>
    </div>
  );
}
