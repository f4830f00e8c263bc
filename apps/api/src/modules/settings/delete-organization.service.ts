import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { organizations } from "../../db/schema/organizations.ts";
import { audit } from "../../platform/audit.ts";
import { inRequest } from "../../platform/auth.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { PaymentProvider } from "../billing/index.ts";
import { subscriptionIdOf } from "../billing/index.ts";
import { eraseOrganization } from "../organizations/index.ts";

/**
 * Deleting the organization (Settings, admins): the admin types its name to confirm; its subscription at the provider
 * ends at once (so nothing more is charged), then everything it owns is erased.
 */
export async function deleteOrganization(
  app: FastifyInstance,
  req: FastifyRequest,
  provider: PaymentProvider,
  confirm: string,
): Promise<{ message: string }> {
  const found = await inRequest(app, req, async (ctx) => {
    const [org] = await ctx.db
      .select({ name: organizations.name, isDemo: organizations.isDemo })
      .from(organizations)
      .where(eq(organizations.id, ctx.orgId));
    if (!org) throw notFound("Organization");
    if (org.isDemo) throw new AppError("FORBIDDEN", "The demo organization cannot be deleted.");
    if (confirm.trim() !== org.name) {
      const message = `Type the organization's name exactly to confirm: ${org.name}`;
      throw new AppError("VALIDATION_ERROR", message, [{ path: "confirm", message }]);
    }
    const subscriptionId = await subscriptionIdOf(ctx);
    // Kept until the erase below removes the organization with its log (and kept if that fails).
    await audit(ctx, "organization.deletion_requested", { type: "organization", id: ctx.orgId, label: org.name });
    return { orgId: ctx.orgId, subscriptionId };
  });
  if (found.subscriptionId) {
    try {
      await provider.cancelNow(found.subscriptionId);
    } catch (err) {
      req.log.warn({ err, orgId: found.orgId }, "could not cancel the subscription of a deleted organization");
    }
  }
  await eraseOrganization(app.db, found.orgId);
  return { message: "Your organization and all its data were deleted." };
}
