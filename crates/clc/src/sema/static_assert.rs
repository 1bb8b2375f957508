//! `_Static_assert` (C11 6.7.10), at file scope and in blocks: "the constant expression shall
//! compare unequal to 0", else the program is rejected with the message. OpenCL C 3.0 is based
//! on C99, but every clang-based OpenCL compiler accepts it in every version.

use super::*;

impl Sema<'_> {
    pub(super) fn static_assert(&mut self, sa: &ast::StaticAssert) {
        let e = self.expr(&sa.cond);
        if e.is_error() {
            return;
        }
        let e = self.rvalue(e);
        match self.const_int(&e) {
            Some(0) => {
                let msg = match &sa.message {
                    Some(m) => format!("static assertion failed: {}", String::from_utf8_lossy(m)),
                    None => "static assertion failed".to_string(),
                };
                self.diags.error(sa.cond.loc, msg);
            }
            Some(_) => {}
            None => self.diags.error(
                sa.cond.loc,
                "static assertion expression is not an integral constant expression",
            ),
        }
    }
}
