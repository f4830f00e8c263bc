import { useLayoutEffect } from "react";

/**
 * The page's <title> (React 19 hoists it into <head>, ahead of index.html's default) and its meta description.
 * The description updates index.html's own tag rather than rendering a second <meta> next to it: with two, crawlers and
 * link previews would read the first, generic one. Leaving the page puts the default back.
 */
export function PageMeta({ title, description }: { title: string; description: string }) {
  useLayoutEffect(() => {
    let tag = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    const created = !tag;
    if (!tag) {
      tag = document.createElement("meta");
      tag.name = "description";
      document.head.append(tag);
    }
    const previous = tag.content;
    tag.content = description;
    return () => {
      if (created) tag.remove();
      else tag.content = previous;
    };
  }, [description]);

  return <title>{title}</title>;
}
