pub mod path;
pub mod shell;
