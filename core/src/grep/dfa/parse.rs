//! The patterns the DFA takes, read into a tree: a subset of the engine's syntax that
//! covers what models write (literals, classes, `\d \w \s` and their negations, `.`,
//! groups, alternation, every repetition, `^ $ \b \B`, a leading `(?i)`). Anything else
//! is `None`, and the pattern keeps the engine alone: never a different reading.

/// A set of characters: ASCII ones by bit, every non-ASCII one or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Class {
    pub ascii: u128,
    pub non_ascii: bool,
}

impl Class {
    const fn of(ranges: &[(u8, u8)]) -> Class {
        let mut ascii = 0u128;
        let mut i = 0;
        while i < ranges.len() {
            let mut b = ranges[i].0;
            while b <= ranges[i].1 {
                ascii |= 1 << b;
                b += 1;
            }
            i += 1;
        }
        Class {
            ascii,
            non_ascii: false,
        }
    }

    fn negated(self) -> Class {
        Class {
            ascii: !self.ascii,
            non_ascii: !self.non_ascii,
        }
    }

    fn union(self, other: Class) -> Class {
        Class {
            ascii: self.ascii | other.ascii,
            non_ascii: self.non_ascii || other.non_ascii,
        }
    }

    /// With the other case of every ASCII letter in it.
    fn folded(self) -> Class {
        let upper = (self.ascii & Class::LOWER.ascii) >> 32;
        let lower = (self.ascii & Class::UPPER.ascii) << 32;
        Class {
            ascii: self.ascii | upper | lower,
            non_ascii: self.non_ascii,
        }
    }

    fn byte(b: u8) -> Class {
        Class {
            ascii: 1 << b,
            non_ascii: false,
        }
    }

    pub(super) const DIGIT: Class = Class::of(&[(b'0', b'9')]);
    pub(super) const WORD: Class =
        Class::of(&[(b'0', b'9'), (b'A', b'Z'), (b'_', b'_'), (b'a', b'z')]);
    const SPACE: Class = Class::of(&[(b'\t', b'\r'), (b' ', b' ')]);
    const LOWER: Class = Class::of(&[(b'a', b'z')]);
    const UPPER: Class = Class::of(&[(b'A', b'Z')]);
}

/// A zero-width assertion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Look {
    Start,
    End,
    WordBoundary,
    NotWordBoundary,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Node {
    Empty,
    Class(Class),
    /// A non-ASCII character, as written (folding is ASCII only).
    Char(char),
    Look(Look),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
}

/// `pattern` as a tree, ASCII letters folded when `ignore_case` (or a leading `(?i)`);
/// `None` for anything outside the subset.
pub(super) fn parse(pattern: &str, ignore_case: bool) -> Option<Node> {
    let (body, fold) = match pattern.strip_prefix("(?i)") {
        Some(rest) => (rest, true),
        None => (pattern, ignore_case),
    };
    let mut parser = Parser {
        chars: body.chars().collect(),
        at: 0,
        fold,
        depth: 0,
    };
    let node = parser.alternation()?;
    (parser.at == parser.chars.len()).then_some(node)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    fold: bool,
    depth: u32,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn alternation(&mut self) -> Option<Node> {
        let mut alternatives = vec![self.concat()?];
        while self.peek() == Some('|') {
            self.at += 1;
            alternatives.push(self.concat()?);
        }
        Some(match alternatives.len() {
            1 => alternatives.pop()?,
            _ => Node::Alt(alternatives),
        })
    }

    fn concat(&mut self) -> Option<Node> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.repetitions(atom)?);
        }
        Some(match items.len() {
            0 => Node::Empty,
            1 => items.pop()?,
            _ => Node::Concat(items),
        })
    }

    /// `atom` with its repetition operator, if any (one: stacked ones are left to the
    /// engine).
    fn repetitions(&mut self, atom: Node) -> Option<Node> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => return self.counted(atom),
            _ => return Some(atom),
        };
        self.at += 1;
        self.finish_repeat(atom, min, max)
    }

    fn counted(&mut self, atom: Node) -> Option<Node> {
        self.at += 1; // `{`
        let min = self.number()?;
        let max = match self.peek()? {
            '}' => Some(min),
            ',' => {
                self.at += 1;
                match self.peek()? {
                    '}' => None,
                    _ => Some(self.number()?),
                }
            }
            _ => return None,
        };
        if self.peek()? != '}' || max.is_some_and(|max| max < min) {
            return None;
        }
        self.at += 1;
        self.finish_repeat(atom, min, max)
    }

    fn finish_repeat(&mut self, atom: Node, min: u32, max: Option<u32>) -> Option<Node> {
        // A lazy repetition matches the same rows.
        if self.peek() == Some('?') {
            self.at += 1;
        }
        if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
            return None;
        }
        Some(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
        })
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if self.at == start || self.at - start > 4 {
            return None;
        }
        self.chars[start..self.at]
            .iter()
            .collect::<String>()
            .parse()
            .ok()
    }

    fn atom(&mut self) -> Option<Node> {
        let c = self.peek()?;
        self.at += 1;
        Some(match c {
            '(' => return self.group(),
            '[' => Node::Class(self.class()?),
            '.' => Node::Class(Class::byte(b'\n').negated()),
            '^' => Node::Look(Look::Start),
            '$' => Node::Look(Look::End),
            '\\' => return self.escape(),
            '*' | '+' | '?' | '{' | '}' | ']' => return None,
            c => self.literal(c),
        })
    }

    fn literal(&self, c: char) -> Node {
        if !c.is_ascii() {
            return Node::Char(c);
        }
        let class = Class::byte(c as u8);
        Node::Class(if self.fold { class.folded() } else { class })
    }

    fn group(&mut self) -> Option<Node> {
        if self.peek() == Some('?') {
            // Only `(?:…)`; flags mid-pattern and named groups stay with the engine.
            if self.chars.get(self.at + 1) != Some(&':') {
                return None;
            }
            self.at += 2;
        }
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let inner = self.alternation()?;
        self.depth -= 1;
        if self.peek()? != ')' {
            return None;
        }
        self.at += 1;
        Some(inner)
    }

    fn escape(&mut self) -> Option<Node> {
        let c = self.peek()?;
        self.at += 1;
        let perl = match c {
            'd' => Class::DIGIT,
            'D' => Class::DIGIT.negated(),
            'w' => Class::WORD,
            'W' => Class::WORD.negated(),
            's' => Class::SPACE,
            'S' => Class::SPACE.negated(),
            'b' => return Some(Node::Look(Look::WordBoundary)),
            'B' => return Some(Node::Look(Look::NotWordBoundary)),
            c => return Some(self.literal(escaped(c)?)),
        };
        Some(Node::Class(perl))
    }

    /// A bracketed class, after its `[`: ASCII members, ranges, `\d \w \s` and their
    /// negations; nested classes, POSIX names and non-ASCII members stay with the engine.
    fn class(&mut self) -> Option<Class> {
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        if self.peek()? == ']' {
            return None;
        }
        let mut set = Class {
            ascii: 0,
            non_ascii: false,
        };
        let mut first = true;
        loop {
            let c = self.peek()?;
            self.at += 1;
            let perl = match c {
                ']' => break,
                '[' | '&' | '~' => return None,
                '\\' => {
                    let e = self.peek()?;
                    self.at += 1;
                    match e {
                        'd' => Some(Class::DIGIT),
                        'D' => Some(Class::DIGIT.negated()),
                        'w' => Some(Class::WORD),
                        'W' => Some(Class::WORD.negated()),
                        's' => Some(Class::SPACE),
                        'S' => Some(Class::SPACE.negated()),
                        e => {
                            let lit = escaped(e)?;
                            set = self.member(set, lit)?;
                            first = false;
                            continue;
                        }
                    }
                }
                // A `-` is a member only first or last: elsewhere the engine may read
                // a set operation.
                '-' if !first && self.peek() != Some(']') => return None,
                c => {
                    set = self.member(set, c)?;
                    first = false;
                    continue;
                }
            };
            // A perl class: a `-` after it would be a range, left to the engine.
            if self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']') {
                return None;
            }
            set = set.union(perl?);
            first = false;
        }
        if self.fold {
            set = set.folded();
        }
        Some(if negated { set.negated() } else { set })
    }

    /// `set` with `lo`, or the range `lo-hi` when a `-` and a member follow.
    fn member(&mut self, set: Class, lo: char) -> Option<Class> {
        if !lo.is_ascii() {
            return None;
        }
        let mut hi = lo;
        if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|&c| c != ']') {
            self.at += 1;
            let c = self.peek()?;
            self.at += 1;
            hi = match c {
                '\\' => {
                    let e = self.peek()?;
                    self.at += 1;
                    escaped(e)?
                }
                '[' | '&' | '~' | '-' => return None,
                c => c,
            };
            if !hi.is_ascii() || hi < lo {
                return None;
            }
        }
        Some(set.union(Class::of(&[(lo as u8, hi as u8)])))
    }
}

/// The character an escape other than a class or an assertion stands for: ASCII
/// punctuation (but `<` and `>`), and `\t \n \r \f \v`. `None` for the rest (`\x41`,
/// `\u{…}`, `\p{…}`, `\A`…: left to the engine).
fn escaped(c: char) -> Option<char> {
    Some(match c {
        't' => '\t',
        'n' => '\n',
        'r' => '\r',
        'f' => '\x0C',
        'v' => '\x0B',
        '<' | '>' => return None,
        c if c.is_ascii_punctuation() => c,
        _ => return None,
    })
}
