//! A game's rules as a page of the site: its rules' Markdown as HTML,
//! with the board at the start drawn as the game pages draw boards (an
//! SVG), where the text gives it as the mails draw it; that drawing
//! stays under it, folded away.

use super::SiteError;
use minijinja::{Environment, Value, context};
use pbem_engine::game::{self, Game, View};
use pbem_engine::rules::Rules;
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

/// The page of `rules`.
pub(super) fn page(env: &Environment<'_>, rules: Rules) -> Result<String, SiteError> {
    let (diagram, board) = pbem_engine::with_game!(rules, G => {
        let start = G::start(game::first_sides::<G>()[0]);
        (start.diagram(&View::default()), start.board(&View::default()))
    });
    let setup = env.get_template("setup.html")?.render(context! {
        board => Value::from_safe_string(pbem_engine::board::svg(&board)),
        diagram => diagram.trim_end(),
    })?;
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, with_board(rules.info().text, &diagram, &setup));
    let ctx = context! {
        root => "../", name => rules.name(), text => Value::from_safe_string(html),
    };
    Ok(env.get_template("rules.html")?.render(ctx)?)
}

/// The events of `markdown`, each fenced block that is the drawing
/// `diagram` replaced by the HTML `setup`; other blocks as they are.
fn with_board<'a>(
    markdown: &'a str,
    diagram: &str,
    setup: &'a str,
) -> impl Iterator<Item = Event<'a>> {
    let mut out = Vec::new();
    let mut block: Option<(Tag<'a>, Vec<Event<'a>>, String)> = None;
    for event in Parser::new(markdown) {
        match (event, &mut block) {
            (Event::Start(tag @ Tag::CodeBlock(CodeBlockKind::Fenced(_))), None) => {
                block = Some((tag, Vec::new(), String::new()));
            }
            (Event::End(TagEnd::CodeBlock), Some(_)) => {
                let Some((tag, inner, text)) = block.take() else {
                    continue;
                };
                if text.trim_end() == diagram.trim_end() {
                    out.push(Event::Html(setup.into()));
                } else {
                    out.push(Event::Start(tag));
                    out.extend(inner);
                    out.push(Event::End(TagEnd::CodeBlock));
                }
            }
            (event, Some((_, inner, text))) => {
                if let Event::Text(t) = &event {
                    text.push_str(t);
                }
                inner.push(event);
            }
            (event, None) => out.push(event),
        }
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setup_drawing_becomes_the_board_and_other_blocks_stay() {
        let md = "# T\n\nAt the start:\n\n```text\nA B\nC D\n```\n\nCode:\n\n```text\nx = 1\n```\n";
        let mut html = String::new();
        pulldown_cmark::html::push_html(
            &mut html,
            with_board(md, "A B\nC D\n", "<figure>B</figure>"),
        );
        assert!(html.contains("<figure>B</figure>"), "{html}");
        assert!(!html.contains("A B"), "{html}");
        assert!(
            html.contains("<pre><code class=\"language-text\">x = 1\n</code></pre>"),
            "{html}"
        );
    }

    #[test]
    fn every_games_rules_page_draws_its_board_at_the_start() {
        let env = super::super::pages::environment();
        for rules in Rules::ALL {
            let page = page(&env, rules).unwrap();
            assert_eq!(page.matches("<svg").count(), 1, "{rules}: one board");
            assert!(page.contains("<figure class=\"setup\">"), "{rules}");
            // The drawing of the mails, kept under it in a block of its own.
            assert!(page.contains("<details><summary>"), "{rules}");
            assert!(!page.contains("```"), "{rules}");
            assert!(page.contains("<h2>Setup</h2>"), "{rules}");
        }
    }
}
