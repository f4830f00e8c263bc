import { NotFound } from "../../../components/ui/load-states.tsx";

export function ArticleNotFound() {
  return <NotFound thing="Article" backTo="/knowledge-base" backLabel="Back to Knowledge Base" />;
}
